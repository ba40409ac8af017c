/**
 * The OpenAPI document is valid OpenAPI 3.1 (checked by a real validator) and covers exactly the
 * public route table: every route, its method, path parameters, security scheme and the statuses
 * every area can answer (401/429 on key routes, 429 with Retry-After everywhere).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES, buildOpenApiDocument } from '../../functions/openapi/document';
import { OPERATIONS } from '../../functions/openapi/operations';
import { ROUTES } from '../../functions/routes';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; security: unknown[]; parameters: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> }
    >
  >;
};

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument('https://api.example.com') as unknown as Doc;

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has one operation per public route and nothing else; the admin and console APIs stay out', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(documented.sort()).toEqual(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
    expect(Object.keys(OPERATIONS).sort()).toEqual(PUBLIC_ROUTES.map((r) => r.id).sort());
    expect(PUBLIC_ROUTES.length).toBe(ROUTES.filter((r) => r.auth !== 'iam' && r.area !== 'console').length);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/admin') || p.startsWith('/console'))).toBe(false);
  });

  it.each(PUBLIC_ROUTES.map((r) => [r.id, r] as const))('%s: path parameters, security, 429 with Retry-After, 401 on key routes', (_, route) => {
    const op = doc.paths[route.path]![route.method.toLowerCase()]!;
    const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParams);
    expect(op.security).toEqual(route.auth === 'public' ? [] : [{ [route.auth]: [] }]);
    expect(op.responses['429']?.headers).toHaveProperty('Retry-After');
    if (route.auth !== 'public') expect(op.responses).toHaveProperty('401');
  });

  it.each(PUBLIC_ROUTES.map((r) => [r.id, r] as const))(
    '%s: its request declaration fits the route (path names, a body only where the route reads one)',
    (_, route) => {
      const request = OPERATIONS[route.id]!.request ?? {};
      const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      for (const name of Object.keys(request.path ?? {})) expect(pathParams).toContain(name);
      if (request.body) expect(route.body).not.toBe('none');
      if (request.body?.contentType === 'multipart/form-data') expect(route.body).toBe('multipart');
    },
  );
});
