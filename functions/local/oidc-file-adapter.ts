/**
 * The embedded OpenID provider's storage (sessions, interactions, codes, grants, refresh tokens) in the
 * data folder, one JSON file per model, so a restart of `npm start` keeps people signed in and their
 * tokens valid. Small and local: each write rewrites its model's file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  readonly payload: AdapterPayload;
  readonly expiresAtMs?: number;
}

export function fileAdapterFactory(dir: string): (model: string) => Adapter {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const models = new Map<string, FileOidcAdapter>();
  return (model) => {
    let adapter = models.get(model);
    if (!adapter) {
      adapter = new FileOidcAdapter(join(dir, `${model}.json`));
      models.set(model, adapter);
    }
    return adapter;
  };
}

class FileOidcAdapter implements Adapter {
  private readonly entries: Map<string, Entry>;

  constructor(private readonly file: string) {
    this.entries = existsSync(file) ? new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>)) : new Map();
  }

  private save(): void {
    const now = Date.now();
    for (const [id, e] of this.entries) if (e.expiresAtMs !== undefined && e.expiresAtMs <= now) this.entries.delete(id);
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.entries)), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  private live(id: string): AdapterPayload | undefined {
    const e = this.entries.get(id);
    if (!e || (e.expiresAtMs !== undefined && e.expiresAtMs <= Date.now())) return undefined;
    return e.payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    this.entries.set(id, { payload, ...(expiresIn ? { expiresAtMs: Date.now() + expiresIn * 1000 } : {}) });
    this.save();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.live(id);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    for (const id of this.entries.keys()) if (this.live(id)?.userCode === userCode) return this.live(id);
    return undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    for (const id of this.entries.keys()) if (this.live(id)?.uid === uid) return this.live(id);
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.set(id, { ...e, payload: { ...e.payload, consumed: Math.floor(Date.now() / 1000) } });
    this.save();
  }

  async destroy(id: string): Promise<void> {
    if (this.entries.delete(id)) this.save();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    let changed = false;
    for (const [id, e] of this.entries) {
      if (e.payload.grantId === grantId) changed = this.entries.delete(id) || changed;
    }
    if (changed) this.save();
  }
}
