/**
 * The first start's demo: an org on the paid plan, an org key with all four read scopes, and a demo app
 * with a chat API key. Written to `<dataDir>/demo.json` so later starts can print it again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOrg } from '../tenancy/app/create-org';
import { issueCredential } from '../tenancy/app/issue-credential';
import { createApp } from '../tenancy/app/manage-apps';
import { ORG_SCOPES } from '../kernel/domain/scopes';
import type { Deps } from './all-ports';

export interface DemoCredentials {
  readonly baseUrl: string;
  readonly orgId: string;
  readonly orgKey: string;
  readonly appId: string;
  readonly appNameId: string;
  readonly chatKey: string;
  readonly adminToken: string;
}

export async function seedDemo(deps: Deps, dataDir: string, baseUrl: string, adminToken: string): Promise<DemoCredentials> {
  const file = join(dataDir, 'demo.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
    const demo = { ...saved, baseUrl, adminToken };
    writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
    return demo;
  }
  const org = await createOrg(deps, { name: 'Demo Org', plan: 'paid' });
  const orgKey = await issueCredential(deps, { kind: 'org', orgId: org.id, scopes: ORG_SCOPES, name: 'demo export key' });
  const app = await createApp(deps, { orgId: org.id, name: 'Demo Assistant' });
  const chatKey = await issueCredential(deps, { kind: 'chat', appId: app.id, name: 'demo chat key' });
  const demo: DemoCredentials = { baseUrl, orgId: org.id, orgKey: orgKey.key, appId: app.id, appNameId: app.appNameId, chatKey: chatKey.key, adminToken };
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}
