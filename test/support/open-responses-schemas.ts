/**
 * The Open Responses OpenAPI document (CC-BY-4.0; an unmodified copy in test/fixtures/openresponses/)
 * compiled with Ajv's draft 2020-12 build: its `#/components/schemas/...` references resolve inside the
 * document, so a response object or a stream event is checked against the definition it claims.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

const DOC_ID = 'https://openresponses.test/openapi.json';
const doc = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/openresponses/openapi.json', import.meta.url)), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...doc, $id: DOC_ID });

type Ref = { $ref: string };
/** The stream event schemas by the `type` each one carries, read from the document's `/responses` answer. */
const streamSchemas = new Map<string, string>(
  (doc.paths['/responses'].post.responses['200'].content['text/event-stream'].schema.oneOf as Ref[]).map(({ $ref }) => {
    const name = $ref.split('/').at(-1)!;
    const type = doc.components.schemas[name].properties.type;
    return [type.const ?? type.enum[0], name];
  }),
);

function expectValid(name: string, value: unknown): void {
  const validate = ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`);
  if (!validate) throw new Error(`no components/schemas/${name} in the Open Responses document`);
  const ok = validate(value);
  expect(ok ? [] : validate.errors, `${name}: ${JSON.stringify(value).slice(0, 600)}`).toEqual([]);
}

/** Fails the test unless `value` is a valid Open Responses `ResponseResource`. */
export function expectOpenResponse(value: unknown): void {
  expectValid('ResponseResource', value);
}

/** Fails the test unless `event` is valid against the Open Responses schema of its own `type`. */
export function expectOpenResponsesEvent(event: { type: string }): void {
  const name = streamSchemas.get(event.type);
  expect(name, `no Open Responses event schema for ${event.type}`).toBeDefined();
  expectValid(name!, event);
}
