/**
 * The org's audit log, newest first: who changed what, on which resource, when and from where, with
 * the before and after of each change in a disclosure. Filters by member, action and resource type;
 * keyset pages. Owners and admins only.
 */
import { useEffect, useState } from 'preact/hooks';
import { can, type OrgMembership, orgPath } from '../api-client';
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
  const [seen, setSeen] = useState<readonly string[]>([]);
  const pager = usePager();
  const members = useLoad<Member[]>(permitted ? orgPath(org.orgId, 'members') : undefined);
  if (!permitted) return <p>Your role ({org.role}) cannot read the audit log; an owner or admin can.</p>;
  return (
    <>
      <AuditFilterForm
        applied={filters}
        members={members.state?.kind === 'ready' ? members.state.value : []}
        seenActions={seen}
        onApply={(next) => {
          pager.reset();
          setFilters(next);
        }}
      />
      {/* A new query is a new read: the records of the previous one never show under the new filters. */}
      <AuditRecords key={JSON.stringify([filters, pager.cursor])} org={org} filters={filters} pager={pager} onSeen={setSeen} />
    </>
  );
}

interface RecordsProps {
  readonly org: OrgMembership;
  readonly filters: AuditFilters;
  readonly pager: ReturnType<typeof usePager>;
  readonly onSeen: (actions: readonly string[]) => void;
}

function AuditRecords({ org, filters, pager, onSeen }: RecordsProps) {
  const records = useLoadPage<AuditRecord>(orgPath(org.orgId, 'audit-log'), { ...filters, cursor: pager.cursor, limit: PAGE_SIZE });
  const filtered = Boolean(filters.actor || filters.action || filters.resourceType);
  const state = records.state;
  useEffect(() => {
    if (state?.kind === 'ready') onSeen(state.value.items.map((r) => r.action));
  }, [state, onSeen]);
  return (
    <LoadView state={state}>
      {(page) =>
        page.items.length === 0 ? (
          <p role="status">{filtered ? 'No record matches these filters.' : 'Nothing has been changed in this organisation yet.'}</p>
        ) : (
          <>
            <AuditTable records={page.items} filtered={filtered} />
            <Pager pager={pager} nextCursor={page.nextCursor} label="Audit log" />
          </>
        )
      }
    </LoadView>
  );
}
