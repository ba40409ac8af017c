/**
 * Structured output (functions/chat/domain/structured-output.ts) and the JSON Schema check under it
 * (functions/chat/domain/json-schema-check.ts): what conforms, what a client gets, what a model is told.
 */
import { describe, expect, it } from 'vitest';
import type { ResponseFormat } from '../../functions/chat/domain/client-tools';
import { jsonSchemaDefect, jsonSchemaProblems, parseJsonAnswer } from '../../functions/chat/domain/json-schema-check';
import { answerProblems, conformingText, formatInstruction, repairRequest } from '../../functions/chat/domain/structured-output';

const TEXT: ResponseFormat = { type: 'text' };
const OBJECT: ResponseFormat = { type: 'json_object' };
const PERSON_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
  required: ['name', 'age'],
  additionalProperties: false,
};
const PERSON: ResponseFormat = { type: 'json_schema', name: 'person', schema: PERSON_SCHEMA, strict: true };

describe('parseJsonAnswer', () => {
  it('reads the whole text as JSON', () => {
    expect(parseJsonAnswer('{"a":1}')).toEqual({ value: { a: 1 }, json: '{"a":1}' });
    expect(parseJsonAnswer(' [1, 2] ')).toEqual({ value: [1, 2], json: ' [1, 2] ' });
    expect(parseJsonAnswer('"s"')).toEqual({ value: 's', json: '"s"' });
    expect(parseJsonAnswer('null')).toEqual({ value: null, json: 'null' });
  });

  it('reads the body of one code fence around the whole text, with or without a json tag', () => {
    expect(parseJsonAnswer('```json\n{"a":1}\n```')).toEqual({ value: { a: 1 }, json: '{"a":1}' });
    expect(parseJsonAnswer('  ```\n[1]\n```  \n')).toEqual({ value: [1], json: '[1]' });
    expect(parseJsonAnswer('```json\n{\n  "a": [1,\n 2]\n}\n```')).toEqual({ value: { a: [1, 2] }, json: '{\n  "a": [1,\n 2]\n}' });
  });

  it('is undefined for prose, a fence with prose around it, a fence on one line, or broken JSON', () => {
    for (const text of [
      '',
      'Sure!',
      'Here it is:\n```json\n{"a":1}\n```',
      '```json\n{"a":1}\n```\nDone.',
      '```json {"a":1}```',
      '{"a":',
      '```json\n{"a":\n```',
    ]) {
      expect(parseJsonAnswer(text), text).toBeUndefined();
    }
  });
});

describe('jsonSchemaProblems', () => {
  it('is empty for a valid value, and one readable line per problem with its location otherwise', () => {
    expect(jsonSchemaProblems(PERSON_SCHEMA, { name: 'Ada', age: 36 })).toEqual([]);
    const problems = jsonSchemaProblems(PERSON_SCHEMA, { name: '', age: -1, extra: true });
    expect(problems.length).toBeGreaterThanOrEqual(3);
    expect(problems.some((p) => p.startsWith('#/name: '))).toBe(true);
    expect(problems.some((p) => p.startsWith('#/age: '))).toBe(true);
    expect(jsonSchemaProblems(PERSON_SCHEMA, [])).toEqual([expect.stringMatching(/^#: /)]);
  });

  it('names at most 5 problems', () => {
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const value = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, i]));
    expect(jsonSchemaProblems(schema, value)).toHaveLength(5);
  });

  it('follows local $refs', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer', minimum: 3 } } };
    expect(jsonSchemaProblems(schema, { a: 3 })).toEqual([]);
    expect(jsonSchemaProblems(schema, { a: 2 })).toEqual([expect.stringMatching(/^#\/a: /)]);
  });

  it('reads a draft-07 schema as draft-07 (`definitions`, array `items`)', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'integer' }],
      additionalItems: false,
    };
    expect(jsonSchemaProblems(schema, ['a', 1])).toEqual([]);
    expect(jsonSchemaProblems(schema, ['a', 1, 2])).not.toEqual([]);
  });

  it('reports a schema it cannot apply instead of throwing', () => {
    expect(jsonSchemaProblems({ $ref: '#' }, 1)).toEqual(['the schema cannot be applied: it refers to itself without end']);
    const [problem] = jsonSchemaProblems({ type: 'string', pattern: '([' }, 'x');
    expect(problem).toMatch(/^the schema cannot be applied: /);
  });
});

describe('jsonSchemaDefect: what makes a request’s schema a 400 before any model call', () => {
  it('passes the schemas clients generate (draft-07 with definitions, 2020-12 with $defs, anchors, booleans)', () => {
    expect(
      jsonSchemaDefect({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { $ref: '#/definitions/A' }, b: { type: ['string', 'null'], pattern: '^x+$' }, c: true },
        definitions: { A: { type: 'array', items: { $ref: '#' } } },
      }),
    ).toBeUndefined();
    expect(jsonSchemaDefect({ $defs: { node: { $anchor: 'node', type: 'object' } }, $ref: '#node' })).toBeUndefined();
  });

  it('names an unknown type, a pattern that is no regular expression, a reference it cannot follow, a loop, a depth beyond 64', () => {
    expect(jsonSchemaDefect({ type: 'banana' })).toBe('#.type: "banana" is no JSON type');
    expect(jsonSchemaDefect({ properties: { a: { type: 'string', pattern: '([' } } })).toBe('#.properties.a: the pattern "([" is no regular expression');
    expect(jsonSchemaDefect({ patternProperties: { '(': {} } })).toBe('#: the pattern "(" is no regular expression');
    expect(jsonSchemaDefect({ $ref: 'https://example.com/s.json' })).toBe('#.$ref "https://example.com/s.json" does not point to a schema in this document');
    expect(jsonSchemaDefect({ $ref: '#/$defs/missing' })).toBe('#.$ref "#/$defs/missing" does not point to a schema in this document');
    expect(jsonSchemaDefect({ $ref: '#/%zz' })).toBe('#.$ref "#/%zz" does not point to a schema in this document');
    expect(jsonSchemaDefect({ $ref: '#' })).toBe('the schema cannot be applied: it refers to itself without end');
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 70; i++) deep = { type: 'array', items: deep };
    expect(jsonSchemaDefect(deep)).toBe('nested deeper than 64 levels');
  });
});

describe('answerProblems', () => {
  it('finds nothing wrong with any text when the format is text', () => {
    expect(answerProblems(TEXT, 'anything, {not json')).toEqual([]);
  });

  it('wants a JSON object for json_object (fenced or not)', () => {
    expect(answerProblems(OBJECT, '{"reply":"hi"}')).toEqual([]);
    expect(answerProblems(OBJECT, '```json\n{"reply":"hi"}\n```')).toEqual([]);
    expect(answerProblems(OBJECT, 'hi')).toEqual(['the answer is not JSON']);
    for (const text of ['[1]', '"hi"', '3', 'null']) expect(answerProblems(OBJECT, text), text).toEqual(['the answer is not a JSON object']);
  });

  it('wants a value valid against the schema for json_schema', () => {
    expect(answerProblems(PERSON, '{"name":"Ada","age":36}')).toEqual([]);
    expect(answerProblems(PERSON, 'Ada, 36')).toEqual(['the answer is not JSON']);
    expect(answerProblems(PERSON, '{"name":"Ada"}')).toEqual([expect.stringContaining('age')]);
    // A schema that is not an object type takes any JSON value it allows.
    expect(answerProblems({ type: 'json_schema', name: 'n', schema: { type: 'array', items: { type: 'integer' } }, strict: false }, '[1,2]')).toEqual([]);
    expect(answerProblems({ type: 'json_schema', name: 'n', schema: {}, strict: false }, '"any"')).toEqual([]);
  });
});

describe('conformingText', () => {
  it('is the JSON without a fence for JSON formats, and the text itself otherwise', () => {
    expect(conformingText(OBJECT, '```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(conformingText(PERSON, '{"name":"Ada","age":1}')).toBe('{"name":"Ada","age":1}');
    expect(conformingText(OBJECT, 'not json')).toBe('not json');
    expect(conformingText(TEXT, '```json\n{"a":1}\n```')).toBe('```json\n{"a":1}\n```');
  });
});

describe('formatInstruction and repairRequest', () => {
  it('tells a model without native support what to answer', () => {
    expect(formatInstruction(TEXT)).toBeUndefined();
    expect(formatInstruction(OBJECT)).toBe('Answer with one JSON object and nothing else: no prose, no code fence.');
    expect(formatInstruction(PERSON)).toBe(
      `Answer with one JSON value valid against this JSON Schema ("person") and nothing else: no prose, no code fence.\n${JSON.stringify(PERSON_SCHEMA)}`,
    );
  });

  it('lists what was wrong, one line each', () => {
    expect(repairRequest(['#/age: missing', 'the answer is not JSON'])).toBe(
      'Your previous answer did not match the required format:\n- #/age: missing\n- the answer is not JSON\nAnswer again with only the corrected JSON.',
    );
  });
});
