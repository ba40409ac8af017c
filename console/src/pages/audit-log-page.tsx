/**
 * The org's audit log, newest first: who changed what, on which resource, when and from where, with
 * the before and after of each change in a disclosure. Filters by member, action and resource type;
 * keyset pages. Owners and admins only.
 */
import { useState } from 'preact/hooks';
import { can, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import { Pager, usePager } from '../components/pager';
import type { PageProps } from '../pages';
import { useLoad, useLoadPage } from '../use-load';
import { AuditFilterForm } from './audit-filters';
import { AuditTable } from './audit-table';
import { type AuditFilters, type AuditRecord, NO_FILTERS } from './audit-views';
import type { Member } from './members-views';

const PAGE_SIZE = 25;

export function AuditLogPage({ org }: PageProps) {
  const permitted = can(org, 'audit.read');
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const pager = usePager();
  const records = useLoadPage<AuditRecord>(permitted ? orgPath(org.orgId, 'audit-log') : undefined, { ...filters, cursor: pager.cursor, limit: PAGE_SIZE });
  const members = useLoad<Member[]>(permitted ? orgPath(org.orgId, 'members') : undefined);
  const memberList = members.state?.kind === 'ready' ? members.state.value : [];
  const seen = records.state?.kind === 'ready' ? records.state.value.items.map((r) => r.action) : [];
  const filtered = filters.actor || filters.action || filters.resourceType;
  if (!permitted) return <p>Your role ({org.role}) cannot read the audit log; an owner or admin can.</p>;
  return (
    <>
      <AuditFilterForm
        applied={filters}
        members={memberList}
        seenActions={seen}
        onApply={(next) => {
          pager.reset();
          setFilters(next);
        }}
      />
      <LoadView state={records.state}>
        {(page) =>
          page.items.length === 0 ? (
            <p role="status">{filtered ? 'No record matches these filters.' : 'Nothing has been changed in this organisation yet.'}</p>
          ) : (
            <>
              <AuditTable records={page.items} filtered={Boolean(filtered)} />
              <Pager pager={pager} nextCursor={page.nextCursor} label="Audit log" />
            </>
          )
        }
      </LoadView>
    </>
  );
}
