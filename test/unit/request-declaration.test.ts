import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../functions/kernel/domain/errors';
import type { HttpRequest } from '../../functions/kernel/http/kit-request';
import { jsonBody, param, readParameters, readRequest, textParam, uuidPathId } from '../../functions/kernel/http/request-declaration';

/** A request as the kit hands it to a handler, with only what these rules read. */
function request(parts: {
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body?: Record<string, unknown>;
}): HttpRequest {
  const headers = parts.headers ?? {};
  return {
    event: { multiValueHeaders: parts.multiValueHeaders ?? {} } as unknown as APIGatewayProxyEvent,
    correlationId: 'c',
    path: parts.path ?? {},
    query: parts.query ?? {},
    clientIp: '127.0.0.1',
    header: (name) => Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1],
    jsonBody: () => parts.body ?? {},
    textBody: () => JSON.stringify(parts.body ?? {}),
    bodyStream: () => {
      throw new Error('no stream');
    },
  };
}

const SESSION = '0b7f6b1e-8a51-4a4e-9a51-2f1f0d2f6c3a';

describe('readRequest', () => {
  const order: string[] = [];
  const seen = (part: string) => (raw: string) => {
    order.push(`${part}:${raw}`);
    return raw;
  };
  const decl = {
    path: { sessionId: param({}, seen('path')) },
    query: { b: param({}, seen('query b')), a: param({}, seen('query a')) },
    headers: { 'X-Thing': param({}, seen('header')) },
    body: jsonBody({ type: 'object' }, (body) => {
      order.push('body');
      return body.n as number;
    }),
  };

  it('reads path, query (in declaration order), headers and body, in that order, and types what it read', async () => {
    order.length = 0;
    const read = await readRequest(decl, request({ path: { sessionId: 's' }, query: { a: '1', b: '2' }, headers: { 'x-thing': 'h' }, body: { n: 3 } }));
    expect(order).toEqual(['path:s', 'query b:2', 'query a:1', 'header:h', 'body']);
    expect(read).toEqual({ path: { sessionId: 's' }, query: { a: '1', b: '2' }, headers: { 'X-Thing': 'h' }, answerHeaders: {}, body: 3 });
  });

  it('leaves out parameters the request does not carry, and ignores undeclared ones without a policy', async () => {
    const read = await readRequest({ query: { a: textParam({}) } }, request({ query: { other: 'x' } }));
    expect(read.query).toEqual({});
    expect(read.body).toBeUndefined();
  });

  it('runs the area’s query policy before any parameter’s rule, and returns the headers it gives', () => {
    const calls: string[] = [];
    const decl2 = { query: { a: param({}, (raw) => calls.push(`a:${raw}`)) } };
    const read = readParameters(decl2, request({ query: { a: '1', z: '2' } }), {
      queryPolicy: (req, declared) => {
        calls.push(`policy:${Object.keys(req.query).join(',')}/${declared.join(',')}`);
        return { Warning: 'ignored z' };
      },
    });
    expect(calls).toEqual(['policy:a,z/a', 'a:1']);
    expect(read.answerHeaders).toEqual({ Warning: 'ignored z' });
  });

  it('reads a list header’s field lines as one list', () => {
    const decl2 = { headers: { 'If-None-Match': textParam({}, { list: true }) } };
    const read = readParameters(decl2, request({ multiValueHeaders: { 'if-none-match': ['"a"', '"b"'] }, headers: { 'if-none-match': '"b"' } }));
    expect(read.headers['If-None-Match']).toBe('"a", "b"');
  });

  it('answers the first refusal', async () => {
    const refuse = (message: string) => () => {
      throw new DomainError('bad_request', message);
    };
    const decl2 = { query: { a: param({}, refuse('query')) }, headers: { h: param({}, refuse('header')) } };
    await expect(readRequest(decl2, request({ query: { a: '' }, headers: { h: '' } }))).rejects.toThrow('query');
  });
});

describe('uuidPathId', () => {
  it('reads a UUID and refuses anything else as the resource not found', () => {
    const rule = uuidPathId('sessionId');
    expect(rule.read(SESSION)).toBe(SESSION);
    expect(rule.schema).toEqual({ type: 'string', format: 'uuid' });
    expect(() => rule.read('nope')).toThrow('Session not found');
  });
});
