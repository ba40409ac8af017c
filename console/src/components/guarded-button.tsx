/**
 * A button the role may not use stays visible, disabled, with the reason beside it (the server refuses
 * the call anyway). The reason is linked by `aria-describedby`, so a screen reader says why.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { can, type OrgMembership } from '../api-client';

interface Props {
  readonly org: OrgMembership;
  readonly permission: string;
  /** Why a role without the permission cannot, e.g. "Only owners and admins delete sessions". */
  readonly reason: string;
  /** A refusal beyond the permission, said as it is (e.g. an admin facing an owner's membership). */
  readonly refused?: string;
  /** A submit button sends its form; a plain button calls `onClick`. */
  readonly type?: 'button' | 'submit';
  readonly onClick?: () => void;
  readonly busy?: boolean;
  readonly variant?: 'primary' | 'danger';
  readonly children: ComponentChildren;
  /**
   * The id of this reason shown once elsewhere on the page (above a table whose every row has the
   * button): the button points to it instead of repeating it on each row.
   */
  readonly reasonShownAt?: string;
}

export function GuardedButton({ org, permission, reason, refused, type = 'button', onClick, busy, variant, children, reasonShownAt }: Props) {
  const id = useId();
  const permitted = can(org, permission);
  const allowed = permitted && !refused;
  const shownAt = permitted ? undefined : reasonShownAt;
  return (
    <span class="guarded">
      <button type={type} class={variant} disabled={!allowed || busy} aria-describedby={allowed ? undefined : (shownAt ?? id)} onClick={onClick}>
        {children}
      </button>
      {!allowed && !shownAt && (
        <small id={id} class="muted">
          {permitted ? refused : `${reason} (your role: ${org.role}).`}
        </small>
      )}
    </span>
  );
}
