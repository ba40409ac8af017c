/**
 * The issuer's discovery document (`/.well-known/openid-configuration`), fetched once per process.
 * Its `issuer` must equal the configured one exactly (OpenID Connect Discovery §4.3), or a mistyped or
 * hostile issuer URL could lend its keys to another issuer's name.
 */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly jwks_uri: string;
  readonly end_session_endpoint?: string;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

export function issuerDiscovery(issuer: string, fetchFn: FetchLike = fetch): () => Promise<IssuerMetadata> {
  let pending: Promise<IssuerMetadata> | undefined;
  const load = async (): Promise<IssuerMetadata> => {
    const res = await fetchFn(discoveryUrl(issuer), { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`OpenID discovery of ${issuer} answered ${res.status}`);
    const doc = (await res.json()) as Partial<IssuerMetadata>;
    if (doc.issuer !== issuer) throw new Error(`OpenID discovery of ${issuer} names another issuer: ${String(doc.issuer)}`);
    for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
      if (typeof doc[field] !== 'string') throw new Error(`OpenID discovery of ${issuer} has no ${field}`);
    }
    return doc as IssuerMetadata;
  };
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
