/**
 * Every OpenAPI document the project serves passes Spectral's `oas` ruleset (recommended) and Redocly's
 * `recommended` rules with no error and no warning: the public document (`/api/v1/openapi.json`, the
 * front door's file), the console backend's (`/console/openapi.json`, also a front-door file) and the admin
 * document (`GET /admin/v1/openapi.json`).
 */
import { describe, expect, it } from 'vitest';
import { buildAdminOpenApiDocument } from '../../functions/openapi/admin-document';
import { CONSOLE_OPENAPI_PATH, docsFiles, OPENAPI_PATH } from '../../functions/openapi/docs-site';
import { redoclyFindings, spectralFindings } from '../support/openapi-lint';

const DOCUMENTS: Readonly<Record<string, () => Record<string, unknown>>> = {
  public: () => JSON.parse(docsFiles()[OPENAPI_PATH]!.body.toString()) as Record<string, unknown>,
  console: () => JSON.parse(docsFiles()[CONSOLE_OPENAPI_PATH]!.body.toString()) as Record<string, unknown>,
  admin: () => buildAdminOpenApiDocument(),
};

describe('the served OpenAPI documents lint clean', () => {
  for (const [name, build] of Object.entries(DOCUMENTS)) {
    it(`${name}: Spectral oas, no error and no warning`, async () => {
      expect(await spectralFindings(build())).toEqual([]);
    }, 60_000);

    it(`${name}: Redocly recommended, no error and no warning`, async () => {
      expect(await redoclyFindings(build())).toEqual([]);
    }, 60_000);
  }
});
