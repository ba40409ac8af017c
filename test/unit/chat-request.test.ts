import { describe, expect, it } from 'vitest';
import { newTurnMessages, parseChatRequest, type ChatMessageInput } from '../../functions/chat/domain/chat-request';
import { MAX_FILE_REFERENCES, parseFileReferences, parseVariables, VARIABLE_LIMITS } from '../../functions/chat/domain/turn-fields';
import { DomainError } from '../../functions/kernel/domain/errors';

const APP = 'support-bot-7';
const USER = [{ role: 'user', content: 'hi' }];

/** The DomainError `fn` throws (fails the test when it throws nothing or something else). */
function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

function rejects(body: Record<string, unknown>, code: string, message: string | RegExp): void {
  const err = errorOf(() => parseChatRequest(body, APP));
  expect(err.code, JSON.stringify(body).slice(0, 200)).toBe(code);
  if (typeof message === 'string') expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
}

function variables(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, 'x']));
}

function files(n: number) {
  return Array.from({ length: n }, (_, i) => ({ fileId: `f${i}`, fileName: `f${i}.png` }));
}

describe('parseChatRequest: validation order', () => {
  it('model must be a string, checked before anything else', () => {
    for (const model of [undefined, null, 7, true, ['x'], { name: APP }]) {
      rejects({ model, messages: USER }, 'bad_request', 'model must be a string');
      // Even when every later rule is broken too.
      rejects({ model, messages: [], variables: variables(21), files: files(101), bogus: 1 }, 'bad_request', 'model must be a string');
    }
  });

  it('messages must be a non-empty array, checked before the app lookup and the other fields', () => {
    for (const messages of [undefined, null, [], 'hi', { role: 'user', content: 'hi' }, 3]) {
      rejects({ model: APP, messages }, 'bad_request', 'messages must be a non-empty array');
      rejects({ model: 'no-such-app-1', messages, variables: { '9bad': 'x' } }, 'bad_request', 'messages must be a non-empty array');
    }
  });

  it('every message is { role, content: text, name? } with tool calls and results in their own roles, and nothing else', () => {
    const roles = 'user, assistant, system, developer, tool';
    rejects(
      {
        model: APP,
        messages: [
          { role: 'user', content: 'ok' },
          { role: 'function', content: 'x' },
        ],
      },
      'bad_request',
      `messages[1].role must be one of ${roles}`,
    );
    rejects({ model: APP, messages: ['hi'] }, 'bad_request', `messages[0].role must be one of ${roles}`);
    rejects({ model: APP, messages: [{ content: 'hi' }] }, 'bad_request', `messages[0].role must be one of ${roles}`);
    rejects({ model: APP, messages: [{ role: 'tool', content: 'x' }] }, 'bad_request', 'messages[0].tool_call_id must be a string of 1 to 256 characters');
    rejects(
      { model: APP, messages: [{ role: 'tool', content: 'x', tool_call_id: 'c', refusal: null }] },
      'bad_request',
      'messages[0] has unsupported fields: refusal',
    );
    rejects({ model: APP, messages: [{ role: 'assistant', content: null }] }, 'bad_request', /^messages\[0\]\.content must be a string/);
    rejects(
      { model: APP, messages: [{ role: 'assistant', content: null, tool_calls: {} }] },
      'bad_request',
      'messages[0].tool_calls must be an array of at most 128 tool calls',
    );
    rejects(
      { model: APP, messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }] },
      'bad_request',
      'messages[0].tool_calls[0].function.arguments must be a string (JSON text)',
    );
    rejects(
      { model: APP, messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'custom', custom: {} }] }] },
      'bad_request',
      'messages[0].tool_calls[0] must be { id, type: "function", function: { name, arguments } }',
    );
    rejects({ model: APP, messages: [{ role: 'assistant', content: 'a', refusal: 5 }] }, 'bad_request', 'messages[0].refusal must be a string or null');
    // No image, file or audio parts, no remote URLs, no base64 (rule 8); text parts are fine.
    const refused = /^messages\[0\]\.content must be a string or an array of text parts \(remote URLs, base64 and multipart content are not supported\)$/;
    for (const part of [
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,AAAA' } },
      { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
      { type: 'text', text: 5 },
      { type: 'text' },
    ]) {
      rejects({ model: APP, messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, part] }] }, 'bad_request', refused);
    }
    rejects({ model: APP, messages: [{ role: 'user', content: [] }] }, 'bad_request', refused);
    rejects({ model: APP, messages: [{ role: 'user', content: null }] }, 'bad_request', refused);
    rejects(
      { model: APP, messages: [{ role: 'user', content: [{ type: 'text', text: 'a', cache_control: {} }] }] },
      'bad_request',
      'messages[0].content parts have unsupported fields: cache_control',
    );
    // What the OpenAI Agents SDK echoes on a part is taken with the values it sends, no other.
    rejects(
      { model: APP, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'a', role: 'user', annotations: {} }] }] },
      'bad_request',
      'messages[0].content parts have unsupported fields: role, annotations',
    );
    rejects({ model: APP, messages: [{ role: 'user', content: 'hi', name: 7 }] }, 'bad_request', 'messages[0].name must be a string of at most 64 characters');
    rejects(
      { model: APP, messages: [{ role: 'user', content: 'hi', name: 'n'.repeat(65) }] },
      'bad_request',
      'messages[0].name must be a string of at most 64 characters',
    );
    rejects({ model: APP, messages: [{ role: 'user', content: 'hi', tool_calls: [] }] }, 'bad_request', 'messages[0] has unsupported fields: tool_calls');
  });

  it('takes the fields the OpenAI Agents SDK echoes on an answer sent back as a text part, and ignores them', () => {
    const r = parseChatRequest(
      {
        model: APP,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'text', text: 'Hello', role: 'assistant' }] },
          { role: 'assistant', content: [{ type: 'text', text: ' again', annotations: [] }] },
          { role: 'user', content: 'and?' },
        ],
      },
      APP,
    );
    expect(r.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'assistant', content: ' again' },
      { role: 'user', content: 'and?' },
    ]);
  });

  it('takes developer as a system instruction, text parts joined, and name (ignored)', () => {
    const r = parseChatRequest(
      {
        model: APP,
        messages: [
          { role: 'developer', content: 'Be brief.' },
          {
            role: 'user',
            name: 'bob',
            content: [
              { type: 'text', text: 'Hello, ' },
              { type: 'text', text: 'world' },
            ],
          },
        ],
      },
      APP,
    );
    expect(r.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello, world' },
    ]);
  });

  it('takes the parameters clients send by default: n 1, seed and penalties passed on; user, metadata, store and logprobs false accepted', () => {
    const r = parseChatRequest(
      {
        model: APP,
        messages: USER,
        n: 1,
        seed: 42,
        presence_penalty: 0.5,
        frequency_penalty: -1,
        user: 'end-user-1',
        metadata: { team: 'a' },
        store: false,
        logprobs: false,
      },
      APP,
    );
    expect(r.options).toEqual({ seed: 42, presencePenalty: 0.5, frequencyPenalty: -1 });
    expect(parseChatRequest({ model: APP, messages: USER, n: null, seed: null, logprobs: null }, APP).options).toEqual({});
  });

  it('accepts and ignores the prompt cache and verbosity settings the OpenAI Agents SDK sends, each checked', () => {
    const r = parseChatRequest(
      { model: APP, messages: USER, prompt_cache_retention: '24h', prompt_cache_options: { mode: 'implicit' }, verbosity: 'low' },
      APP,
    );
    expect(r.options).toEqual({});
    expect(parseChatRequest({ model: APP, messages: USER, prompt_cache_retention: null, prompt_cache_options: null, verbosity: null }, APP).options).toEqual(
      {},
    );
    rejects({ model: APP, messages: USER, verbosity: 'terse' }, 'bad_request', 'verbosity must be low, medium or high');
    rejects({ model: APP, messages: USER, prompt_cache_retention: '1h' }, 'bad_request', 'prompt_cache_retention must be in_memory or 24h');
    rejects({ model: APP, messages: USER, prompt_cache_options: 'implicit' }, 'bad_request', 'prompt_cache_options must be an object');
  });

  it('refuses what those parameters cannot be, naming each', () => {
    rejects({ model: APP, messages: USER, n: 2 }, 'bad_request', 'n must be 1: a turn has one answer (send the turn again for another)');
    rejects({ model: APP, messages: USER, n: '1' }, 'bad_request', /^n must be 1/);
    rejects({ model: APP, messages: USER, seed: 1.5 }, 'bad_request', 'seed must be an integer');
    rejects({ model: APP, messages: USER, presence_penalty: 3 }, 'bad_request', 'presence_penalty must be a number from -2 to 2');
    rejects({ model: APP, messages: USER, frequency_penalty: 'x' }, 'bad_request', 'frequency_penalty must be a number from -2 to 2');
    rejects({ model: APP, messages: USER, user: 5 }, 'bad_request', 'user must be a string of at most 256 characters');
    rejects({ model: APP, messages: USER, metadata: { a: 1 } }, 'bad_request', /^metadata must be an object of at most 16 string values/);
    rejects(
      { model: APP, messages: USER, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      'bad_request',
      /^metadata must be/,
    );
    rejects({ model: APP, messages: USER, store: 'yes' }, 'bad_request', 'store must be a boolean');
    rejects({ model: APP, messages: USER, logprobs: true }, 'bad_request', 'logprobs is not supported: send false or leave it out');
  });

  it("a model other than the key's app names no app (404), before variables, files and other fields are looked at", () => {
    rejects({ model: 'other-app-1', messages: USER }, 'not_found', 'Model not found: other-app-1');
    rejects({ model: '', messages: USER }, 'not_found', /^Model not found/);
    rejects({ model: 'other-app-1', messages: USER, variables: variables(21) }, 'not_found', /^Model not found/);
    rejects({ model: 'other-app-1', messages: USER, variables: { 'bad name': 'x' } }, 'not_found', /^Model not found/);
    rejects({ model: 'other-app-1', messages: USER, files: files(101) }, 'not_found', /^Model not found/);
    rejects({ model: 'other-app-1', messages: USER, bogus: true }, 'not_found', /^Model not found/);
  });

  it('variables are validated once the model names the app', () => {
    rejects({ model: APP, messages: USER, variables: variables(21) }, 'bad_request', 'variables: at most 20 entries per request');
  });

  it('files are validated after variables', () => {
    rejects({ model: APP, messages: USER, variables: variables(21), files: files(101) }, 'bad_request', /^variables:/);
    rejects({ model: APP, messages: USER, files: files(101) }, 'bad_request', 'files: at most 100 references per request');
  });

  it('rejects unknown top-level fields, naming them (no parameter is silently ignored)', () => {
    rejects({ model: APP, messages: USER, top_k: 5 }, 'bad_request', 'Unsupported parameter: top_k');
    rejects({ model: APP, messages: USER, functions: [], top_logprobs: 2 }, 'bad_request', 'Unsupported parameters: functions, top_logprobs');
  });

  it('checks the type of stream, stream_options and chatSessionId', () => {
    rejects({ model: APP, messages: USER, stream: 'true' }, 'bad_request', 'stream must be a boolean');
    rejects({ model: APP, messages: USER, stream_options: { include_usage: true } }, 'bad_request', 'stream_options is only allowed with stream: true');
    rejects(
      { model: APP, messages: USER, stream: true, stream_options: { include_usage: 'yes' } },
      'bad_request',
      'stream_options must be { include_usage: boolean }',
    );
    rejects({ model: APP, messages: USER, stream: true, stream_options: { other: true } }, 'bad_request', 'stream_options must be { include_usage: boolean }');
    rejects({ model: APP, messages: USER, chatSessionId: '' }, 'bad_request', 'chatSessionId must be a non-empty string');
    rejects({ model: APP, messages: USER, chatSessionId: 42 }, 'bad_request', 'chatSessionId must be a non-empty string');
  });

  it('checks the generation options of the OpenAI shape', () => {
    rejects({ model: APP, messages: USER, temperature: 2.5 }, 'bad_request', 'temperature must be a number from 0 to 2');
    rejects({ model: APP, messages: USER, temperature: '1' }, 'bad_request', 'temperature must be a number from 0 to 2');
    rejects({ model: APP, messages: USER, top_p: -0.1 }, 'bad_request', 'top_p must be a number from 0 to 1');
    rejects({ model: APP, messages: USER, max_tokens: 1.5 }, 'bad_request', 'max_tokens must be an integer from 1 to 200000');
    rejects({ model: APP, messages: USER, max_completion_tokens: 0 }, 'bad_request', 'max_completion_tokens must be an integer from 1 to 200000');
    rejects({ model: APP, messages: USER, stop: ['a', 'b', 'c', 'd', 'e'] }, 'bad_request', 'stop must be a string or an array of at most 4 strings');
    rejects({ model: APP, messages: USER, stop: 5 }, 'bad_request', 'stop must be a string or an array of at most 4 strings');
  });
});

/** The tool and format fields of a request that sets none of them. */
const NO_TOOLS = { tools: [], toolChoice: { type: 'auto' }, parallelToolCalls: true, responseFormat: { type: 'text' } };

describe('parseChatRequest: a valid request', () => {
  it('keeps messages in order and defaults the optional fields', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: '' },
    ];
    expect(parseChatRequest({ model: APP, messages }, APP)).toEqual({
      model: APP,
      messages,
      stream: false,
      streamUsage: false,
      variables: {},
      files: [],
      options: {},
      ...NO_TOOLS,
    });
  });

  it('reads every optional field', () => {
    const parsed = parseChatRequest(
      {
        model: APP,
        messages: USER,
        stream: true,
        stream_options: { include_usage: true },
        chatSessionId: 's-1',
        variables: { crmToken: 't', tenant: 'acme' },
        files: [{ fileId: 'f1', fileName: 'a.pdf' }],
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 100,
        max_completion_tokens: 50,
        stop: 'END',
      },
      APP,
    );
    expect(parsed).toEqual({
      model: APP,
      messages: USER,
      stream: true,
      streamUsage: true,
      chatSessionId: 's-1',
      variables: { crmToken: 't', tenant: 'acme' },
      files: [{ fileId: 'f1', fileName: 'a.pdf' }],
      // max_completion_tokens (the newer OpenAI name) wins over max_tokens; a single stop string becomes a list.
      options: { temperature: 0.2, topP: 0.9, maxTokens: 50, stop: ['END'] },
      ...NO_TOOLS,
    });
  });

  it('treats null options and stream_options as absent', () => {
    expect(parseChatRequest({ model: APP, messages: USER, temperature: null, stop: null, stream_options: null }, APP).options).toEqual({});
  });
});

describe('parseVariables', () => {
  it('accepts exactly 20 entries and refuses 21', () => {
    expect(Object.keys(parseVariables(variables(VARIABLE_LIMITS.maxEntries)))).toHaveLength(20);
    expect(errorOf(() => parseVariables(variables(21))).message).toBe('variables: at most 20 entries per request');
  });

  it('accepts a value of 2048 characters and refuses 2049', () => {
    expect(parseVariables({ v: 'x'.repeat(2048) }).v).toHaveLength(2048);
    const err = errorOf(() => parseVariables({ v: 'x'.repeat(2049) }));
    expect([err.code, err.message]).toEqual(['bad_request', 'variables.v: at most 2048 characters']);
  });

  it('accepts names matching ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$, up to 64 characters', () => {
    const good = ['a', '_', 'Z', 'crmToken', '_tenant-id', 'a-b_c9', `a${'b'.repeat(63)}`];
    expect(Object.keys(parseVariables(Object.fromEntries(good.map((n) => [n, 'v']))))).toEqual(good);
    expect(`a${'b'.repeat(63)}`).toHaveLength(64);
  });

  it('refuses every other name with a 400 naming the rule', () => {
    for (const name of ['', '9lives', '-dash', 'a.b', 'a b', 'tenant$', 'ümlaut', 'a\nb', `a${'b'.repeat(64)}`]) {
      const err = errorOf(() => parseVariables({ [name]: 'v' }));
      expect(err.code, JSON.stringify(name)).toBe('bad_request');
      expect(err.message).toMatch(/^variables: invalid name ".*": must match \^\[a-zA-Z_\]\[a-zA-Z0-9_-\]\{0,63\}\$$/s);
    }
  });

  it('refuses non-string values and a non-object', () => {
    for (const value of [1, null, true, ['a'], { a: 'b' }]) expect(errorOf(() => parseVariables({ v: value })).message).toBe('variables.v must be a string');
    for (const raw of [null, 'a=b', ['a'], 5]) expect(errorOf(() => parseVariables(raw)).message).toBe('variables must be an object of string values');
  });

  it('is empty when absent', () => {
    expect(parseVariables(undefined)).toEqual({});
  });
});

describe('parseFileReferences (shape only)', () => {
  it('accepts up to 100 references and refuses 101', () => {
    expect(parseFileReferences(files(MAX_FILE_REFERENCES))).toHaveLength(100);
    expect(errorOf(() => parseFileReferences(files(101))).message).toBe('files: at most 100 references per request');
  });

  it('requires { fileId: non-empty string, fileName: non-empty string } and nothing else', () => {
    const bad: unknown[] = [
      { fileId: 'f' },
      { fileName: 'a.png' },
      { fileId: '', fileName: 'a.png' },
      { fileId: 'f', fileName: '' },
      { fileId: 3, fileName: 'a' },
      'f1',
      null,
    ];
    for (const f of bad)
      expect(errorOf(() => parseFileReferences([f])).message, JSON.stringify(f)).toBe('files[0] must be { fileId: string, fileName: string }');
    expect(errorOf(() => parseFileReferences([{ fileId: 'f', fileName: 'a', url: 'https://x' }])).message).toBe('files[0] has unsupported fields: url');
    expect(errorOf(() => parseFileReferences({ fileId: 'f' })).message).toBe('files must be an array of { fileId, fileName }');
  });
});

describe('newTurnMessages', () => {
  const m = (role: 'user' | 'system' | 'assistant', content: string): ChatMessageInput => ({ role, content });

  it('takes every message of a request that starts a session', () => {
    const all = [m('system', 's'), m('user', 'a'), m('assistant', 'b'), m('user', 'c')];
    expect(newTurnMessages(all, false)).toEqual(all);
  });

  it('takes only what follows the last assistant message of a continued session (the resent history is already stored)', () => {
    expect(newTurnMessages([m('user', 'a'), m('assistant', 'b'), m('user', 'c'), m('assistant', 'd'), m('system', 'e'), m('user', 'f')], true)).toEqual([
      m('system', 'e'),
      m('user', 'f'),
    ]);
  });

  it('takes every message of a continued session when the client sent no history', () => {
    expect(newTurnMessages([m('user', 'next')], true)).toEqual([m('user', 'next')]);
  });
});
