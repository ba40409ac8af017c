/** The audit log's filters: by member, action and resource type; applied together, from the first page. */
import { useState } from 'preact/hooks';
import { Field } from '../components/field';
import type { Member } from './members-views';
import { type AuditFilters, KNOWN_ACTIONS, KNOWN_RESOURCE_TYPES, NO_FILTERS, WORD } from './audit-views';

interface Props {
  readonly applied: AuditFilters;
  readonly members: readonly Member[];
  /** Actions seen on the page shown, suggested beside the known ones. */
  readonly seenActions: readonly string[];
  readonly onApply: (filters: AuditFilters) => void;
}

export function AuditFilterForm({ applied, members, seenActions, onApply }: Props) {
  const [draft, setDraft] = useState<AuditFilters>(applied);
  const set = (key: keyof AuditFilters) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setDraft({ ...draft, [key]: e.currentTarget.value });
  const actions = [...new Set([...KNOWN_ACTIONS, ...seenActions])].sort();
  return (
    <form
      class="audit-filters"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        onApply({ actor: draft.actor, action: draft.action.trim(), resourceType: draft.resourceType.trim() });
      }}
    >
      <Field label="Member">
        {({ id }) => (
          <select id={id} value={draft.actor} onChange={set('actor')}>
            <option value="">Anyone</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.email}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Action" hint="e.g. invitation.accept">
        {({ id, describedBy }) => (
          <>
            <input id={id} aria-describedby={describedBy} list="audit-actions" pattern={WORD} value={draft.action} onInput={set('action')} />
            <datalist id="audit-actions">
              {actions.map((a) => (
                <option key={a} value={a} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Resource type" hint="e.g. member, app, key">
        {({ id, describedBy }) => (
          <>
            <input id={id} aria-describedby={describedBy} list="audit-resource-types" pattern={WORD} value={draft.resourceType} onInput={set('resourceType')} />
            <datalist id="audit-resource-types">
              {KNOWN_RESOURCE_TYPES.map((t) => (
                <option key={t} value={t} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          Apply filters
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
