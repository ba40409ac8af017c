/**
 * The client function tools and structured-output fields of a chat request (functions/chat/domain/client-tools.ts):
 * how each is read, the message each refusal names, the tool-result rule and the export's markers.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  argumentsObject,
  functionToolMarkers,
  MAX_TOOL_CALLS,
  MAX_TOOLS,
  parseResponseFormat,
  parseToolCallId,
  parseToolCalls,
  parseToolChoice,
  parseTools,
  RESERVED_TOOL_NAMES,
  RESPONSE_FORMAT_SCHEMA,
  TOOL_CALLS_SCHEMA,
  TOOL_CHOICE_SCHEMA,
  TOOL_NAME_PATTERN,
  TOOLS_SCHEMA,
  toolResultProblem,
  type ClientTool,
  type ToolStep,
} from '../../functions/chat/domain/client-tools';
import { DomainError } from '../../functions/kernel/domain/errors';
import { rejection } from '../support/domain-error';

const ajv = new Ajv2020({ strict: false, allErrors: true });

/** The message of the 400 `fn` throws (anything else fails the test). */
function refused(fn: () => unknown): string {
  const err = rejection(fn);
  expect(err).toBeInstanceOf(DomainError);
  expect(err.code).toBe('bad_request');
  return err.message;
}

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', function: { name, ...extra } });
const WEATHER_PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const TOOLS: ClientTool[] = [
  { name: 'get_weather', description: '', parameters: WEATHER_PARAMETERS },
  { name: 'get_time', description: '', parameters: { type: 'object', properties: {} } },
];

describe('parseTools', () => {
  it('reads nothing from an absent or null field', () => {
    expect(parseTools(undefined)).toEqual([]);
    expect(parseTools(null)).toEqual([]);
    expect(parseTools([])).toEqual([]);
  });

  it('reads function tools, with an empty description and an empty object schema as defaults', () => {
    expect(
      parseTools([
        tool('get_weather', { description: 'Weather of a city', parameters: WEATHER_PARAMETERS, strict: true }),
        tool('no-params_2'),
        tool('strict_null', { strict: null }),
      ]),
    ).toEqual([
      { name: 'get_weather', description: 'Weather of a city', parameters: WEATHER_PARAMETERS, strict: true },
      { name: 'no-params_2', description: '', parameters: { type: 'object', properties: {} } },
      { name: 'strict_null', description: '', parameters: { type: 'object', properties: {} } },
    ]);
  });

  it('takes up to 128 tools and names of 1 to 64 characters of [a-zA-Z0-9_-]', () => {
    const many = Array.from({ length: MAX_TOOLS }, (_, i) => tool(`t${i}`));
    expect(parseTools(many)).toHaveLength(128);
    expect(refused(() => parseTools([...many, tool('one_more')]))).toBe('tools: at most 128 tools per request');
    expect(parseTools([tool('a'.repeat(64))])[0]!.name).toHaveLength(64);
    for (const name of ['', 'a'.repeat(65), 'has space', 'dotted.name', 'ünïcode', 'a/b', 7, null, undefined]) {
      expect(refused(() => parseTools([tool('ok'), { type: 'function', function: { name } }]))).toBe('tools[1].function.name must match ^[a-zA-Z0-9_-]{1,64}$');
    }
  });

  it('refuses what is no array of function tools, naming the index', () => {
    for (const raw of ['get_weather', 3, true, { type: 'function', function: { name: 'x' } }]) {
      expect(refused(() => parseTools(raw))).toBe('tools must be an array of function tools');
    }
    for (const t of [
      null,
      'x',
      [],
      { type: 'custom', custom: { name: 'x' } },
      { type: 'function' },
      { type: 'function', function: 'x' },
      { function: { name: 'x' } },
    ]) {
      expect(refused(() => parseTools([tool('ok'), t]))).toBe('tools[1] must be { type: "function", function: { name, parameters } }');
    }
  });

  it('refuses unknown fields on a tool and on its function', () => {
    expect(refused(() => parseTools([{ ...tool('x'), cache_control: {} }]))).toBe('tools[0] has unsupported fields: cache_control');
    expect(refused(() => parseTools([tool('x', { parameters: {}, examples: [], input_schema: {} })]))).toBe(
      'tools[0].function has unsupported fields: examples, input_schema',
    );
  });

  it('checks description, parameters and strict', () => {
    expect(refused(() => parseTools([tool('x', { description: 5 })]))).toBe('tools[0].function.description must be a string of at most 16384 characters');
    expect(parseTools([tool('x', { description: 'd'.repeat(16384) })])[0]!.description).toHaveLength(16384);
    expect(refused(() => parseTools([tool('x', { description: 'd'.repeat(16385) })]))).toBe(
      'tools[0].function.description must be a string of at most 16384 characters',
    );
    for (const parameters of ['{}', 1, [], true, null]) {
      expect(refused(() => parseTools([tool('x', { parameters })]))).toBe('tools[0].function.parameters must be a JSON Schema object');
    }
    for (const strict of ['true', 1, {}]) {
      expect(refused(() => parseTools([tool('x', { strict })]))).toBe('tools[0].function.strict must be a boolean');
    }
  });

  it('refuses the platform document tools names and a name declared twice', () => {
    expect(RESERVED_TOOL_NAMES).toEqual(['readPDF', 'readDocument']);
    for (const name of RESERVED_TOOL_NAMES) {
      expect(refused(() => parseTools([tool('ok'), tool(name)]))).toBe(`tools[1].function.name: ${name} is the platform's own document tool`);
    }
    // Other letter cases are other names.
    expect(parseTools([tool('readpdf')])).toHaveLength(1);
    expect(refused(() => parseTools([tool('a'), tool('b'), tool('a')]))).toBe('tools: the name a is declared twice');
  });
});

describe('parseToolChoice', () => {
  it('defaults to auto, and takes none and auto with or without tools', () => {
    expect(parseToolChoice(undefined, [])).toEqual({ type: 'auto' });
    expect(parseToolChoice(null, TOOLS)).toEqual({ type: 'auto' });
    expect(parseToolChoice('auto', [])).toEqual({ type: 'auto' });
    expect(parseToolChoice('none', [])).toEqual({ type: 'none' });
    expect(parseToolChoice('none', TOOLS)).toEqual({ type: 'none' });
  });

  it('takes required and a named tool only with tools, the name being one of them', () => {
    expect(parseToolChoice('required', TOOLS)).toEqual({ type: 'required' });
    expect(refused(() => parseToolChoice('required', []))).toBe('tool_choice "required" needs tools');
    expect(parseToolChoice({ type: 'function', function: { name: 'get_time' } }, TOOLS)).toEqual({ type: 'tool', name: 'get_time' });
    expect(refused(() => parseToolChoice({ type: 'function', function: { name: 'get_time' } }, []))).toBe(
      'tool_choice names get_time, which is not among tools',
    );
    expect(refused(() => parseToolChoice({ type: 'function', function: { name: 'nope' } }, TOOLS))).toBe('tool_choice names nope, which is not among tools');
    // The name in the message is cut to 64 characters.
    expect(refused(() => parseToolChoice({ type: 'function', function: { name: 'n'.repeat(300) } }, TOOLS))).toBe(
      `tool_choice names ${'n'.repeat(64)}, which is not among tools`,
    );
  });

  it('refuses anything else', () => {
    const message = 'tool_choice must be "none", "auto", "required" or { type: "function", function: { name } }';
    for (const raw of [
      'any',
      'Required',
      '',
      1,
      true,
      [],
      {},
      { type: 'function' },
      { type: 'tool', name: 'get_time' },
      { type: 'function', function: { name: 7 } },
    ]) {
      expect(
        refused(() => parseToolChoice(raw, TOOLS)),
        JSON.stringify(raw),
      ).toBe(message);
    }
    expect(refused(() => parseToolChoice({ type: 'function', function: { name: 'get_time' }, strict: true }, TOOLS))).toBe(
      'tool_choice has unsupported fields: strict',
    );
    expect(refused(() => parseToolChoice({ type: 'function', function: { name: 'get_time', arguments: '{}' } }, TOOLS))).toBe(
      'tool_choice.function has unsupported fields: arguments',
    );
  });
});

describe('parseResponseFormat', () => {
  it('reads text, json_object and json_schema (strict only when true, an empty schema by default)', () => {
    expect(parseResponseFormat(undefined)).toEqual({ type: 'text' });
    expect(parseResponseFormat(null)).toEqual({ type: 'text' });
    expect(parseResponseFormat({ type: 'text' })).toEqual({ type: 'text' });
    expect(parseResponseFormat({ type: 'json_object' })).toEqual({ type: 'json_object' });
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(parseResponseFormat({ type: 'json_schema', json_schema: { name: 'answer', schema, strict: true, description: 'd' } })).toEqual({
      type: 'json_schema',
      name: 'answer',
      schema,
      strict: true,
    });
    expect(parseResponseFormat({ type: 'json_schema', json_schema: { name: 'a-b_1', strict: null } })).toEqual({
      type: 'json_schema',
      name: 'a-b_1',
      schema: {},
      strict: false,
    });
    expect(parseResponseFormat({ type: 'json_schema', json_schema: { name: 'x', schema, strict: false } })).toMatchObject({ strict: false });
  });

  it('refuses every malformed format with a message naming the field', () => {
    const cases: [unknown, string][] = [
      ['json_object', 'response_format must be { type: "text" | "json_object" | "json_schema" }'],
      [[], 'response_format must be { type: "text" | "json_object" | "json_schema" }'],
      [{}, 'response_format must be { type: "text" | "json_object" | "json_schema" }'],
      [{ type: 1 }, 'response_format must be { type: "text" | "json_object" | "json_schema" }'],
      [{ type: 'json' }, 'response_format.type must be text, json_object or json_schema'],
      [{ type: 'text', schema: {} }, 'response_format has unsupported fields: schema'],
      [{ type: 'json_object', json_schema: { name: 'x' } }, 'response_format has unsupported fields: json_schema'],
      [{ type: 'json_schema' }, 'response_format.json_schema must be { name, schema, strict? }'],
      [{ type: 'json_schema', json_schema: 'x' }, 'response_format.json_schema must be { name, schema, strict? }'],
      [{ type: 'json_schema', json_schema: { name: 'x' }, strict: true }, 'response_format has unsupported fields: strict'],
      [{ type: 'json_schema', json_schema: { schema: {} } }, 'response_format.json_schema.name must match ^[a-zA-Z0-9_-]{1,64}$'],
      [{ type: 'json_schema', json_schema: { name: 'has space' } }, 'response_format.json_schema.name must match ^[a-zA-Z0-9_-]{1,64}$'],
      [
        { type: 'json_schema', json_schema: { name: 'x', additionalProperties: false } },
        'response_format.json_schema has unsupported fields: additionalProperties',
      ],
      [{ type: 'json_schema', json_schema: { name: 'x', description: 3 } }, 'response_format.json_schema.description must be a string'],
      [{ type: 'json_schema', json_schema: { name: 'x', schema: null } }, 'response_format.json_schema.schema must be a JSON Schema object'],
      [{ type: 'json_schema', json_schema: { name: 'x', schema: [] } }, 'response_format.json_schema.schema must be a JSON Schema object'],
      [{ type: 'json_schema', json_schema: { name: 'x', schema: true } }, 'response_format.json_schema.schema must be a JSON Schema object'],
      [{ type: 'json_schema', json_schema: { name: 'x', strict: 'yes' } }, 'response_format.json_schema.strict must be a boolean'],
    ];
    for (const [raw, message] of cases)
      expect(
        refused(() => parseResponseFormat(raw)),
        JSON.stringify(raw),
      ).toBe(message);
  });
});

describe('parseToolCalls and parseToolCallId', () => {
  const call = (id: unknown, name: unknown = 'get_weather', args: unknown = '{}') => ({ id, type: 'function', function: { name, arguments: args } });

  it('reads the calls an assistant message made (an `index` from a stream accumulator is accepted and dropped)', () => {
    expect(parseToolCalls([call('c1', 'get_weather', '{"city":"Paris"}'), { ...call('c2', 'get_time', ''), index: 1 }], 'messages[1]')).toEqual([
      { id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'c2', name: 'get_time', arguments: '' },
    ]);
    expect(parseToolCalls([], 'messages[1]')).toEqual([]);
    expect(parseToolCalls([call('i'.repeat(256))], 'm')[0]!.id).toHaveLength(256);
    // Arguments are kept as the text the client sent (not re-checked as JSON).
    expect(parseToolCalls([call('c', 'f', 'not json')], 'm')[0]!.arguments).toBe('not json');
  });

  it('refuses malformed calls, naming the message and the call', () => {
    const at = 'messages[2]';
    const cases: [unknown, string][] = [
      [{}, 'messages[2].tool_calls must be an array of at most 128 tool calls'],
      ['c1', 'messages[2].tool_calls must be an array of at most 128 tool calls'],
      [Array.from({ length: MAX_TOOL_CALLS + 1 }, (_, i) => call(`c${i}`)), 'messages[2].tool_calls must be an array of at most 128 tool calls'],
      [[call('c0'), 'c1'], 'messages[2].tool_calls[1] must be { id, type: "function", function: { name, arguments } }'],
      [
        [{ id: 'c', type: 'custom', custom: { name: 'x', input: '' } }],
        'messages[2].tool_calls[0] must be { id, type: "function", function: { name, arguments } }',
      ],
      [[{ id: 'c', type: 'function' }], 'messages[2].tool_calls[0] must be { id, type: "function", function: { name, arguments } }'],
      [[{ ...call('c'), extra: 1 }], 'messages[2].tool_calls[0] has unsupported fields: extra'],
      [
        [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}', parsed_arguments: {} } }],
        'messages[2].tool_calls[0].function has unsupported fields: parsed_arguments',
      ],
      [[call('')], 'messages[2].tool_calls[0].id must be a string of 1 to 256 characters'],
      [[call(7)], 'messages[2].tool_calls[0].id must be a string of 1 to 256 characters'],
      [[call('i'.repeat(257))], 'messages[2].tool_calls[0].id must be a string of 1 to 256 characters'],
      [[call('c', '')], 'messages[2].tool_calls[0].function.name must be a non-empty string'],
      [[call('c', null)], 'messages[2].tool_calls[0].function.name must be a non-empty string'],
      [[call('c', 'f', { city: 'Paris' })], 'messages[2].tool_calls[0].function.arguments must be a string (JSON text)'],
      [[call('c', 'f', null)], 'messages[2].tool_calls[0].function.arguments must be a string (JSON text)'],
    ];
    for (const [raw, message] of cases)
      expect(
        refused(() => parseToolCalls(raw, at)),
        JSON.stringify(raw).slice(0, 120),
      ).toBe(message);
  });

  it('reads a tool message id of 1 to 256 characters', () => {
    expect(parseToolCallId('call_1', 'messages[3]')).toBe('call_1');
    for (const raw of [undefined, null, '', 5, 'i'.repeat(257), ['c']]) {
      expect(refused(() => parseToolCallId(raw, 'messages[3]'))).toBe('messages[3].tool_call_id must be a string of 1 to 256 characters');
    }
  });
});

describe('argumentsObject', () => {
  it('is the JSON object of the text, else empty', () => {
    expect(argumentsObject('{"city":"Paris","n":[1]}')).toEqual({ city: 'Paris', n: [1] });
    for (const text of ['', 'not json', '[1,2]', '"s"', '3', 'null', '{"a":']) expect(argumentsObject(text)).toEqual({});
  });
});

describe('toolResultProblem', () => {
  const calls = (...ids: string[]): ToolStep => ({ kind: 'calls', ids });
  const result = (id: string): ToolStep => ({ kind: 'result', id });
  const other: ToolStep = { kind: 'other' };

  it('accepts results answering the calls of the assistant message before them, in any order, and calls left unanswered', () => {
    expect(toolResultProblem([])).toBeUndefined();
    expect(toolResultProblem([other, calls('a'), result('a'), other])).toBeUndefined();
    expect(toolResultProblem([other, calls('a', 'b'), result('b'), result('a')])).toBeUndefined();
    expect(toolResultProblem([other, calls('a', 'b'), result('a'), other, calls('c'), other])).toBeUndefined();
    expect(toolResultProblem([calls('a'), calls('b'), result('b')])).toBeUndefined();
  });

  it('names the first result that answers nothing, by its step index', () => {
    expect(toolResultProblem([result('a')])).toEqual({ at: 0, id: 'a' });
    expect(toolResultProblem([other, result('a')])).toEqual({ at: 1, id: 'a' });
    expect(toolResultProblem([other, calls('a'), result('b')])).toEqual({ at: 2, id: 'b' });
    // Answered twice.
    expect(toolResultProblem([other, calls('a'), result('a'), result('a')])).toEqual({ at: 3, id: 'a' });
    // A message in between closes the calls.
    expect(toolResultProblem([other, calls('a'), other, result('a')])).toEqual({ at: 3, id: 'a' });
    // A newer assistant message's calls replace the older ones.
    expect(toolResultProblem([calls('a'), calls('b'), result('a')])).toEqual({ at: 2, id: 'a' });
    expect(toolResultProblem([calls('a'), result('a'), result('x'), result('y')])).toEqual({ at: 2, id: 'x' });
  });

  it('agrees with a direct reading of the rule on generated step sequences', () => {
    const ids = fc.constantFrom('a', 'b', 'c');
    const step: fc.Arbitrary<ToolStep> = fc.oneof(
      fc.constant<ToolStep>({ kind: 'other' }),
      fc.uniqueArray(ids, { minLength: 1, maxLength: 3 }).map((xs): ToolStep => ({ kind: 'calls', ids: xs })),
      ids.map((id): ToolStep => ({ kind: 'result', id })),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        // Each result must name a call of the nearest assistant-calls step before it, with only results in
        // between, and no earlier result in that run may have named it.
        let expected: { at: number; id: string } | undefined;
        for (const [at, s] of steps.entries()) {
          if (s.kind !== 'result') continue;
          let j = at - 1;
          while (j >= 0 && steps[j]!.kind === 'result') j--;
          const owner = j >= 0 ? steps[j]! : undefined;
          const answeredBefore = steps.slice(j + 1, at).some((r) => r.kind === 'result' && r.id === s.id);
          if (owner?.kind !== 'calls' || !owner.ids.includes(s.id) || answeredBefore) {
            expected = { at, id: s.id };
            break;
          }
        }
        expect(toolResultProblem(steps)).toEqual(expected);
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

describe('functionToolMarkers', () => {
  it('marks each call an assistant message hands to the client, without arguments', () => {
    expect(
      functionToolMarkers(
        {
          role: 'assistant',
          toolCalls: [
            { id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { id: 'c2', name: 'get_time', arguments: '{}' },
          ],
        },
        () => 'unused',
      ),
    ).toEqual([
      { id: 'c1', name: 'get_weather', type: 'function' },
      { id: 'c2', name: 'get_time', type: 'function' },
    ]);
  });

  it('marks a tool result with the call it answers, named when the call is known', () => {
    const names: Record<string, string> = { c1: 'get_weather' };
    expect(functionToolMarkers({ role: 'tool', toolCallId: 'c1' }, (id) => names[id])).toEqual([{ id: 'c1', name: 'get_weather', type: 'function_result' }]);
    expect(functionToolMarkers({ role: 'tool', toolCallId: 'c9' }, (id) => names[id])).toEqual([{ id: 'c9', type: 'function_result' }]);
  });

  it('marks nothing else', () => {
    expect(functionToolMarkers({ role: 'assistant' }, () => 'x')).toBeUndefined();
    expect(functionToolMarkers({ role: 'assistant', toolCalls: [] }, () => 'x')).toBeUndefined();
    expect(functionToolMarkers({ role: 'user' }, () => 'x')).toBeUndefined();
    expect(functionToolMarkers({ role: 'tool' }, () => 'x')).toBeUndefined();
  });
});

describe('the documented schemas and the rules that read the same fields', () => {
  const valid = (schema: Record<string, unknown>, value: unknown) => ajv.validate(schema, value);

  it('document the name pattern the rules apply', () => {
    expect(TOOL_NAME_PATTERN.source).toBe('^[a-zA-Z0-9_-]{1,64}$');
  });

  it('accept what the rules accept: tools, tool_choice, response_format', () => {
    const tools = [tool('get_weather', { description: 'd', parameters: WEATHER_PARAMETERS, strict: null }), tool('t2')];
    expect(parseTools(tools)).toHaveLength(2);
    expect(valid(TOOLS_SCHEMA, tools)).toBe(true);
    for (const choice of ['none', 'auto', 'required', { type: 'function', function: { name: 'get_weather' } }]) {
      expect(parseToolChoice(choice, TOOLS)).toBeDefined();
      expect(valid(TOOL_CHOICE_SCHEMA, choice), JSON.stringify(choice)).toBe(true);
    }
    for (const format of [
      { type: 'text' },
      { type: 'json_object' },
      { type: 'json_schema', json_schema: { name: 'x', schema: {}, strict: null, description: 'd' } },
    ]) {
      expect(parseResponseFormat(format)).toBeDefined();
      expect(valid(RESPONSE_FORMAT_SCHEMA, format), JSON.stringify(format)).toBe(true);
    }
  });

  it('refuse in the document what the rules refuse for their shape', () => {
    expect(valid(TOOLS_SCHEMA, [{ type: 'function', function: { name: 'x', examples: [] } }])).toBe(false);
    expect(valid(TOOL_CHOICE_SCHEMA, 'any')).toBe(false);
    expect(valid(RESPONSE_FORMAT_SCHEMA, { type: 'json_schema' })).toBe(false);
    expect(valid(TOOL_CALLS_SCHEMA, [{ id: '', type: 'function', function: { name: 'f', arguments: '{}' } }])).toBe(false);
  });

  it('accept tool calls as the rules accept them', () => {
    const calls = [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }];
    expect(parseToolCalls(calls, 'm')).toHaveLength(1);
    expect(valid(TOOL_CALLS_SCHEMA, calls)).toBe(true);
  });

  // The `index` a tool call may carry is accepted by the rule and shown by the schema.
  it('document the `index` a tool call may carry, which the rule accepts', () => {
    const calls = [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }];
    expect(parseToolCalls(calls, 'm')).toHaveLength(1);
    expect(valid(TOOL_CALLS_SCHEMA, calls)).toBe(true);
  });
});
