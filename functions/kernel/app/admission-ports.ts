/**
 * Who may run a route, and how often: the HTTP kit's port to the keys. The kit hands over what a
 * request says about its caller; tenancy's admission (functions/tenancy/app/admit-request.ts) identifies the caller by the route's
 * auth kind, counts the request against its rate-limit class and admits it (scopes, the key's app and
 * org). The kit knows nothing of keys: it spreads the caller it gets onto the request its handler reads.
 */
import type { RouteDef } from '../route-vocabulary';
import type { AuditScope } from './audit-trail-ports';

/** What a request says about its caller, read from the event by the kit. */
export interface AdmissionRequest {
  /** The `Authorization` header. */
  readonly authorization: string | undefined;
  /** What a gateway authorizer put in the request context; absent with no authorizer in front. */
  readonly authorizer: unknown;
  /** The caller's IAM identity, when API Gateway checked a SigV4 signature. */
  readonly userArn: string | null | undefined;
  readonly clientIp: string;
  readonly path: Readonly<Record<string, string>>;
  /** Any request header, by case-insensitive name (the console's cookie, custom header and origin). */
  header(name: string): string | undefined;
}

/** An admitted request: its caller, and the rate-limit verdict that may still be on its way. */
export interface Admitted<Caller extends object> {
  readonly caller: Caller;
  /**
   * Settles with the rate-limit verdict (a rejection is the 429). A GET runs while it settles; any
   * other method waits for it before it writes anything.
   */
  readonly counted: Promise<void>;
  /** Who the audit log names for a change this request makes: console members and the operator. */
  readonly audit?: AuditScope;
}

export interface Admission<Caller extends object> {
  /** Identifies, counts and admits a request, or throws the error its answer is (401, 403, 429). */
  admit(route: RouteDef, request: AdmissionRequest): Promise<Admitted<Caller>>;
}
