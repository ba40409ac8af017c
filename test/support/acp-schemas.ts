/**
 * The official ACP 2026-04-17 JSON Schemas (Apache-2.0; unmodified copies in test/fixtures/acp/) compiled
 * with Ajv's draft 2020-12 build: every ACP document a test sees is checked against the definition it claims.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

const dir = fileURLToPath(new URL('../fixtures/acp/', import.meta.url));
const CHECKOUT = 'https://example.com/schemas/agentic-checkout/bundle.schema.json';
const FEED = 'https://example.com/schemas/feed/bundle.schema.json';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(JSON.parse(readFileSync(`${dir}schema.agentic_checkout.2026-04-17.json`, 'utf8')));
ajv.addSchema(JSON.parse(readFileSync(`${dir}schema.feed.2026-04-17.json`, 'utf8')));

export type AcpDefinition = 'CheckoutSession' | 'CheckoutSessionWithOrder' | 'Error' | 'DiscoveryResponse' | 'ProductsResponse' | 'Order';

/** A checkout answer with `status` whose body is a valid `CheckoutSession` (with its order once completed); returns the body. */
export function expectAcpSession(res: { status: number; text: string; body: any }, status: number): any {
  expect(res.status, res.text).toBe(status);
  expectAcp(res.body.order ? 'CheckoutSessionWithOrder' : 'CheckoutSession', res.body);
  return res.body;
}

/** A 400 whose body is a valid ACP `Error` with `code` naming the field at `param`; returns the body. */
export function expectAcpRefusal(res: { status: number; text: string; body: any }, param: string, code = 'invalid'): any {
  expect(res.status, res.text).toBe(400);
  expectAcp('Error', res.body);
  expect({ code: res.body.code, param: res.body.param }, res.text).toEqual({ code, param });
  return res.body;
}

/** Fails the test with Ajv's errors unless `value` is valid against the official definition. */
export function expectAcp(definition: AcpDefinition, value: unknown): void {
  const bundle = definition === 'ProductsResponse' ? FEED : CHECKOUT;
  const validate = ajv.getSchema(`${bundle}#/$defs/${definition}`);
  if (!validate) throw new Error(`no $defs/${definition} in ${bundle}`);
  const ok = validate(value);
  expect(ok ? [] : validate.errors, `${definition}: ${JSON.stringify(value).slice(0, 400)}`).toEqual([]);
}
