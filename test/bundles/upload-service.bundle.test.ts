/**
 * THE DEPLOYED UPLOAD SERVICE OUTLIVES HOSTILE REQUESTS: its image's bundle (built with the
 * Dockerfile's own esbuild command), in one child process whose environment is the ECS container's
 * from the synthesized Uploads stack with the local backends' table, bucket and queue, resolving chat
 * keys itself against the local DynamoDB. A multipart part without a name, or a file part cut off
 * before its closing boundary, used to end that process and every upload in flight on the task, and
 * `GET //` got no answer. Each request below is answered as the local server answers the same bytes,
 * and afterwards the process still runs and GET /healthz still answers 200.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { synthPlatform } from '../infra/platform-fixture';
import { exchange, exchangeMany, headerValue, isAnswer, type NoAnswer, type RawAnswer } from '../fuzz/raw-http';
import { createChatKey } from '../support/chat';
import { png } from '../support/file-fixtures';
import { localResources, type LocalResources } from '../support/lambda-bundle';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import {
  buildUploadServiceBundle,
  containerEnvironment,
  freePort,
  imageEnvironment,
  startUploadService,
  type RunningUploadService,
  type UploadServiceBundle,
} from '../support/upload-service-bundle';
import { FILES, MiB, multipart, upload } from '../support/uploads';

/** SNS and Textract have no local twin; a PNG upload never starts OCR, so nothing opens these. */
const UNUSED_TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:unused-ocr';
const UNUSED_ROLE_ARN = 'arn:aws:iam::123456789012:role/unused-textract';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x61, 0x62, 0x63]);

let p: TestPlatform;
let bundle: UploadServiceBundle | undefined;
let service: RunningUploadService | undefined;
let env: Record<string, string>;
let chatKey: string;
let appId: string;

/**
 * The synthesized platform without CDK's built-in CloudFormation validation, which takes most of a
 * synth's ten seconds and is the infra tests' concern, not this file's: only the container's
 * environment is read here.
 */
function synthUploads(): Template {
  const previous = process.env.CDK_VALIDATION;
  process.env.CDK_VALIDATION = 'false';
  try {
    const synth = synthPlatform('prod');
    if (!synth.uploads) throw new Error('the prod stage has no Uploads stack');
    return synth.templates.get(synth.uploads.stackName)!;
  } finally {
    if (previous === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = previous;
  }
}

function serviceEnvironment(template: Template, local: LocalResources, port: number): Record<string, string> {
  return {
    ...imageEnvironment(),
    ...containerEnvironment(template, {
      TABLE_NAME: local.tableName,
      BUCKET_NAME: local.bucketName,
      JOBS_QUEUE_URL: local.jobsQueueUrl,
      OCR_TOPIC_ARN: UNUSED_TOPIC_ARN,
      OCR_ROLE_ARN: UNUSED_ROLE_ARN,
      PORT: String(port),
    }),
    // What Fargate adds; the SDK's credential chain takes the local key pair from the variables first.
    AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE',
    ...local.awsEnv,
  };
}

beforeAll(async () => {
  const built = buildUploadServiceBundle();
  built.catch(() => undefined);
  const template = synthUploads();
  p = await startTestPlatform();
  const local = await localResources(p);
  const f = await p.fixture();
  appId = f.appId;
  chatKey = (await createChatKey(p, f.appId)).key;
  bundle = await built;
  const port = await freePort();
  env = serviceEnvironment(template, local, port);
  service = await startUploadService(bundle.path, env, port);
}, 60_000);

afterAll(async () => {
  if (service?.running()) {
    const exited = new Promise((go) => service!.child.once('exit', go));
    service.child.kill('SIGKILL');
    await exited;
  }
  bundle?.remove();
  await p?.stop();
});

/**
 * What the front door and the balancer add to every request: behind them the service trusts the
 * viewer's address and host (TRUST_VIEWER_ADDRESS). The origin-verify secret is checked by the area
 * APIs' WAF only; the balancer is reachable through the VPC origin alone and the service checks none.
 */
function frontDoorHeaders(): [string, string][] {
  if (env.TRUST_VIEWER_ADDRESS !== 'true') return [];
  return [
    ['X-Viewer-Ip', '203.0.113.7'],
    ['X-Viewer-Host', 'platform.example.com'],
    ['Via', '2.0 0123456789abcdef.cloudfront.net (CloudFront)'],
    ['X-Forwarded-For', '203.0.113.7, 130.176.17.42, 10.0.1.23'],
    ['X-Forwarded-Proto', 'http'],
    ['X-Forwarded-Port', '80'],
    ['X-Amzn-Trace-Id', 'Root=1-67a1b2c3-0123456789abcdef01234567'],
  ];
}

const localPort = () => Number(new URL(p.baseUrl).port);

function head(requestLine: string, headers: readonly string[] = []): Buffer {
  const lines = [requestLine, 'Host: x', ...frontDoorHeaders().map(([k, v]) => `${k}: ${v}`), ...headers];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
}

function uploadHead(body: number | 'chunked', extra: readonly string[] = []): Buffer {
  const framing = body === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${body}`;
  return head(`POST ${FILES} HTTP/1.1`, [`Authorization: Bearer ${chatKey}`, 'Content-Type: multipart/form-data; boundary=XX', framing, ...extra]);
}

function rawTo(port: number, requestHead: Buffer, body: Iterable<Buffer> = [], timeoutMs = 10_000): Promise<RawAnswer | NoAnswer> {
  return exchange({ host: '127.0.0.1', port, head: requestHead, body, timeoutMs });
}

async function answered(port: number, requestHead: Buffer, body: readonly Buffer[] = []): Promise<RawAnswer> {
  const answer = await rawTo(port, requestHead, body);
  if (!isAnswer(answer))
    throw new Error(
      `no answer from port ${port}${service?.running() === false ? ' (the upload service is no longer running)' : ''}: ${answer.error}\n${service?.output() ?? ''}`,
    );
  return answer;
}

/** The same bytes to the service and to the local server: the service's answer, checked against the local one. */
async function sendBoth(requestHead: Buffer, body: readonly Buffer[] = []): Promise<RawAnswer> {
  const deployed = await answered(service!.port, requestHead, body);
  const local = await answered(localPort(), requestHead, body);
  expect(comparable(deployed), 'the service answers as the local server does').toEqual(comparable(local));
  return deployed;
}

function comparable(a: RawAnswer): unknown {
  return { status: a.status, contentType: headerValue(a, 'content-type'), allow: headerValue(a, 'allow'), body: json(a) };
}

function json(a: RawAnswer): unknown {
  return JSON.parse(a.body.toString('utf8'));
}

/** The process did not die, and the load balancer's health check still passes. */
async function survives(): Promise<void> {
  expect(service!.running(), service!.output()).toBe(true);
  const health = await fetch(`http://127.0.0.1:${service!.port}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.text()).toBe('ok');
  expect(service!.running(), service!.output()).toBe(true);
}

/** Slices of `bytes` as a client's writes, without copying. */
function pieces(bytes: Buffer, size = 256 * 1024): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

describe('the upload service bundle under hostile requests', () => {
  it('runs with the container environment of the Uploads stack, behind the front door', () => {
    expect(env.TRUST_VIEWER_ADDRESS).toBe('true');
    expect(env.NODE_ENV).toBe('production');
    expect(env.NODE_OPTIONS).toBe('--enable-source-maps');
    expect(service!.running()).toBe(true);
  });

  it('answers a file part that never reaches its closing boundary (exact Content-Length) with a 400 naming multipart', async () => {
    const parts = [
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
      '--XX\r\nContent-Disposition: form-data; name="other"; filename="b.png"\r\n\r\n',
    ];
    for (const part of parts) {
      const body = Buffer.concat([Buffer.from(part, 'latin1'), PNG_HEAD]);
      const res = await sendBoth(uploadHead(body.length), [body]);
      expect(res.status, part).toBe(400);
      expect(json(res)).toEqual({ error: expect.stringContaining('multipart') });
      await survives();
    }
  });

  it('answers parts without a name, with an empty name, and a field without one with a 400', async () => {
    for (const part of [
      'Content-Disposition: form-data; filename="a.png"',
      'Content-Disposition: form-data; name=""; filename="a.png"',
      'Content-Disposition: form-data',
    ]) {
      const body = Buffer.from(`--XX\r\n${part}\r\n\r\nabc\r\n--XX--\r\n`, 'latin1');
      const res = await sendBoth(uploadHead(body.length), [body]);
      expect(res.status, part).toBe(400);
      expect(json(res), part).toEqual({ error: expect.any(String) });
      await survives();
    }
  });

  it('answers request-targets the URL parser refuses (//, /\\, //[/x) with a 404 JSON error', async () => {
    for (const target of ['//', '/\\', '//[/x']) {
      const res = await sendBoth(head(`GET ${target} HTTP/1.1`));
      expect(res.status, target).toBe(404);
      expect(headerValue(res, 'content-type')).toMatch(/^application\/json/);
      expect(json(res), target).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      await survives();
    }
  });

  it("answers what Node's parser refuses in the chat shape: raw UTF-8 (400), TE with CL (400), 20 KB of headers (431), an unknown method (405, Allow: POST)", async () => {
    const utf8 = await sendBoth(head('GET /api/v1/chat/filé HTTP/1.1'));
    expect(utf8.status).toBe(400);
    expect(json(utf8)).toEqual({ error: expect.any(String) });
    await survives();

    const teCl = await sendBoth(uploadHead('chunked', ['Content-Length: 5']), [Buffer.from('0\r\n\r\n')]);
    expect(teCl.status).toBe(400);
    expect(json(teCl)).toEqual({ error: expect.any(String) });
    await survives();

    const big = await sendBoth(uploadHead(0, [`X-Big: ${'a'.repeat(20_000)}`]));
    expect(big.status).toBe(431);
    expect(json(big)).toEqual({ error: expect.any(String) });
    await survives();

    const foo = await sendBoth(head(`FOO ${FILES} HTTP/1.1`));
    expect(foo.status).toBe(405);
    expect(headerValue(foo, 'allow')).toBe('POST');
    expect(json(foo)).toEqual({ error: expect.any(String) });
    await survives();
  });

  it('answers a body over 20 MiB with the upload table 400 the client receives, with Connection: close, declared or chunked', async () => {
    const part = Buffer.from('--XX\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n', 'latin1');
    const file = Buffer.alloc(21 * MiB, 0x41);
    PNG_HEAD.copy(file);
    const body = Buffer.concat([part, file, Buffer.from('\r\n--XX--\r\n')]);
    const declared = await sendBoth(uploadHead(body.length, ['Connection: close']), pieces(body));
    expect(declared.status).toBe(400);
    expect(json(declared)).toEqual({ error: expect.stringMatching(/20 MB/) });
    await survives();

    const chunked = await sendBoth(uploadHead('chunked', ['Connection: close']), [
      ...pieces(body).map((piece) => Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])),
      Buffer.from('0\r\n\r\n'),
    ]);
    expect(chunked.status).toBe(400);
    expect(json(chunked)).toEqual({ error: expect.stringMatching(/20 MB/) });
    await survives();
  });

  it('outlives a client that goes away mid-upload, then accepts a PNG (201) stored in the local bucket', async () => {
    const part = Buffer.from('--XX\r\nContent-Disposition: form-data; name="file"; filename="half.png"\r\nContent-Type: image/png\r\n\r\n', 'latin1');
    const half = Buffer.concat([part, PNG_HEAD, Buffer.alloc(MiB, 0x41)]);
    // The exchange gives up before the rest of the body, which never comes: its socket is destroyed.
    const cut = await rawTo(service!.port, uploadHead(2 * half.length), [half], 500);
    expect(cut).toEqual({ error: expect.stringMatching(/^timeout/) });
    await survives();

    // The bundle's S3 client turns on path-style addressing only for an explicit endpoint, which the
    // container never has; the SDK addresses the bucket by path on an IP-literal endpoint, and by
    // `<bucket>.<host>` on a named one, which the emulator would not be reached at.
    expect(env.AWS_ENDPOINT_URL_S3).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const bytes = png(2, 2);
    const res = await upload(
      { baseUrl: `http://127.0.0.1:${service!.port}` },
      chatKey,
      { name: 'a.png', bytes, type: 'image/png' },
      Object.fromEntries(frontDoorHeaders()),
    );
    expect(res.status, `${res.text}\n${service!.output()}`).toBe(201);
    expect(res.body).toEqual({ fileId: expect.any(String), fileName: 'a.png', mimeType: 'image/png', size: bytes.length });
    expect(await p.deps.objects.get(`files/${appId}/${res.body.fileId}/original`)).toEqual(Buffer.from(bytes));
    await survives();
  });

  it('answers an upload whose body is longer than its Content-Length (201), then closes the connection: the surplus is never read as a request', async () => {
    const { body } = multipart([{ name: 'file', filename: 'a.png', contentType: 'image/png', data: png(2, 2) }], 'XX');
    const bytes = Buffer.concat([uploadHead(body.length), body, Buffer.from('GARBAGE')]);
    for (const port of [service!.port, localPort()]) {
      // An upload streams: its answer closes a connection whose body was still arriving when it started.
      const { answers, error } = await exchangeMany({ host: '127.0.0.1', port, head: bytes, timeoutMs: 10_000 }, 2);
      expect(
        answers.map((a) => a.status),
        String(port),
      ).toEqual([201]);
      expect(headerValue(answers[0]!, 'connection')).toBe('close');
      expect(error).toMatch(/closed/);
    }
    await survives();
  });
});
