/**
 * The audit trail the HTTP kit writes to: every change made through the console or the admin API is
 * recorded once it has succeeded (who, what, on which resource, when, from where). The kit knows only
 * this port; tenancy's audit log answers it and strips every secret from what it keeps.
 */

/** Who made a change: a member of the org, or the operator through the admin API. */
export interface AuditActorRef {
  readonly kind: 'member' | 'operator';
  /** A member's user key, or the operator's identity (the admin token's name, an IAM principal). */
  readonly id: string;
  readonly email?: string;
}

/** What an admitted console or admin caller brings to the kit's audit record. */
export interface AuditScope {
  readonly actor: AuditActorRef;
  /** The org the caller acts in, when the route names it (the console's `{orgId}`). */
  readonly orgId?: string;
}

/** What a handler may add to the record of its change; the kit fills in the rest. */
export interface AuditDetail {
  /** The org changed, when the path does not name it (an admin route by app id). */
  readonly orgId?: string;
  /** Defaults to the route's id. */
  readonly action?: string;
  /** Defaults to the last id of the path (`{keyId}` is `{ type: 'key', id }`), else the org. */
  readonly resource?: { readonly type: string; readonly id: string };
  readonly before?: object;
  readonly after?: object;
}

export interface AuditEntry {
  readonly orgId: string;
  readonly actor: AuditActorRef;
  readonly action: string;
  readonly resource: { readonly type: string; readonly id: string };
  readonly ip: string;
  readonly userAgent: string;
  readonly before?: object;
  readonly after?: object;
}

export interface AuditTrail {
  record(entry: AuditEntry): Promise<void>;
}
