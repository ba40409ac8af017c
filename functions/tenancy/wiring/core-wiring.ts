/**
 * The composition root, part 1: what every function has: the kernel's ports (clock, ids, the rate
 * counter, logs and metrics, kernel-wiring.ts), tenancy's org, app and credential stores, and the key
 * admission the HTTP kit asks who may run a route. Each area's wiring adds its own ports on top, so a
 * function's bundle carries only the adapters its area uses (test/infra and `npm run bench -- bundles`).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keyAdmission, type KeyCaller } from '../app/admit-request';
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { DynamoAppStore } from '../adapters/dynamo-app-store';
import { DynamoCredentialStore } from '../adapters/dynamo-credential-store';
import { DynamoOrgStore, DynamoChatAdmissionReader } from '../adapters/dynamo-org-store';
import type { AuditTrail } from '../../kernel/app/audit-trail-ports';
import { ENV, parseEnvVars, type EnvVars } from '../../kernel/env';
import type { Admission } from '../../kernel/app/admission-ports';
import type { ApiKeyRegistry, ChatAdmissionReader, PlatformPorts } from '../app/tenancy-ports';
import { buildKernelPorts, type KernelPorts, type KernelWiringOptions } from '../../kernel/wiring/kernel-wiring';

/** What every function's wiring may be given; each area's wiring extends it with its own test and local seams. */
export interface WiringOptions extends KernelWiringOptions {
  /** Set by the local process only: the admin API's bearer token. */
  readonly adminToken?: string;
  /** The local API gateway (its authorizer cache); on AWS built from the environment. */
  readonly apiKeys?: ApiKeyRegistry;
}

/** What the HTTP kit, the queue kit and the job kit need of every function. */
export type CoreDeps = PlatformPorts &
  KernelPorts & {
    /** A chat key's org, app and billing state in one read (chat/wiring builds on it). */
    readonly chatAdmission: ChatAdmissionReader;
    /** Locally the admin API checks this token; on AWS it is undefined and API Gateway enforces IAM. */
    readonly adminToken?: string;
    /** Who may run a route: the HTTP kit's port, answered by the keys of these stores. */
    readonly admission: Admission<KeyCaller>;
    /** Where the kit records the changes of console and admin callers (audit-wiring.ts adds it to their functions). */
    readonly auditTrail?: AuditTrail;
  };

export function buildCoreDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): CoreDeps {
  const table = opts.env[ENV.tableName];
  const ports = {
    ...buildKernelPorts(opts, db),
    orgs: new DynamoOrgStore(db, table),
    credentials: new DynamoCredentialStore(db, table),
    apps: new DynamoAppStore(db, table),
    chatAdmission: new DynamoChatAdmissionReader(db, table),
    ...(opts.adminToken !== undefined ? { adminToken: opts.adminToken } : {}),
  };
  return { ...ports, admission: keyAdmission(ports) };
}

/** Parses the Lambda environment; a missing or malformed variable fails the cold start here. */
export function parseEnv(source: NodeJS.ProcessEnv): EnvVars {
  const parsed = parseEnvVars(source);
  if (!parsed.success) throw new Error(`invalid function environment: ${parsed.invalid.join(', ')}`);
  return parsed.data;
}

/** A Lambda's deps, built from its environment on first use (importing a handler has no side effects). */
export function onFirstUse<T>(build: (opts: WiringOptions) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build({ env: parseEnv(process.env) }));
}
