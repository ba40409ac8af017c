/**
 * Reads the one file of an upload from a `multipart/form-data` stream with busboy, counting bytes as
 * they arrive: the file is handed on as a stream the moment its part begins, nothing of it is held
 * here, and reading stops the moment the file passes the limit. Every malformed shape is a 400 naming
 * what is wrong (spec, area B upload table).
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { badRequest } from '../domain/errors';
import type { BodyRule } from './request-declaration';

export interface ReceivedFile {
  readonly fileName: string;
  /**
   * The file's bytes as they arrive. It ends only once the whole body has been read and found well
   * formed; a body refused after the file began (over the limit, another part, cut off, malformed)
   * fails it with that 400.
   */
  readonly content: Readable;
}

export interface MultipartLimits {
  /** Largest file accepted, in bytes. */
  readonly maxFileBytes: number;
  /** How the limit is shown in the error message ("20 MB"). */
  readonly maxFileLabel: string;
}

/** Field name of the one part an upload carries. */
export const FILE_PART = 'file';

/** A part's name as an error message repeats it: busboy gives none for a part without one. */
function shownName(name: string | undefined): string {
  return typeof name === 'string' ? name.slice(0, 100) : '';
}

/**
 * The file of the request, once its part begins. Refuses (400) a non-multipart body, a malformed one,
 * a part other than `file` and a missing `file` part; a second part, a file over the limit (as soon as
 * it passes it; the caller then stops reading the connection) or a body cut off after the file began
 * fail the file's stream instead. An empty file is handed on as is (the use case's rule).
 */

export function readSingleFile(body: Readable, contentType: string | undefined, limits: MultipartLimits): Promise<ReceivedFile> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) {
    return Promise.reject(badRequest('Content-Type must be multipart/form-data with a boundary, with the file in a part named "file"'));
  }
  return new Promise<ReceivedFile>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fields: 0, fileSize: limits.maxFileBytes + 1 },
        defParamCharset: 'utf8',
      });
    } catch (err) {
      reject(badRequest(`Malformed multipart payload: ${(err as Error).message}`));
      return;
    }
    let settled = false;
    let file: { content: Readable; done: boolean } | undefined;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      body.pause();
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      // Before the file began, the request is refused; after, its reader learns it from the stream.
      if (file) file.content.destroy(err);
      else reject(err);
    };
    /**
     * busboy calls its listeners while it parses inside the request stream's pipe: a throw there would
     * escape every handler and end the process, so any failure of a listener fails this request alone.
     */
    const guarded =
      <A extends unknown[]>(listener: (...args: A) => void) =>
      (...args: A) => {
        try {
          listener(...args);
        } catch (err) {
          fail(badRequest(`Malformed multipart payload: ${(err as Error).message}`));
        }
      };
    parser.on(
      'file',
      guarded((name: string | undefined, stream: Readable, info: busboy.FileInfo) => {
        // busboy fails a part's own stream when the body ends inside it ("Unexpected end of form"): an
        // 'error' with no listener would take the whole process down with this one request.
        stream.on('error', (err: Error) => fail(badRequest(`Malformed multipart payload: ${err.message}`)));
        if (name !== FILE_PART) {
          stream.resume();
          return fail(badRequest(`Unexpected multipart part "${shownName(name)}": the file must be in a part named "file"`));
        }
        const fileName = (info.filename ?? '').trim();
        if (!fileName) {
          stream.resume();
          return fail(badRequest('The "file" part has no filename: send it as a file part (Content-Disposition with filename)'));
        }
        // The reader's pace is the request's: busboy stops taking the body while this stream is paused.
        const content = new Readable({ read: () => void stream.resume() });
        // A reader that stopped early must not leave an unhandled 'error' behind it.
        content.on('error', () => undefined);
        const current = { content, done: false };
        file = current;
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxFileBytes) return fail(badRequest(`The file is over the ${limits.maxFileLabel} upload limit`));
          if (!content.push(chunk)) stream.pause();
        });
        stream.on('end', () => {
          current.done = true;
        });
        resolve({ fileName, content });
      }),
    );
    parser.on(
      'field',
      guarded((name: string | undefined) => fail(badRequest(`Unexpected multipart field "${shownName(name)}": the body must be a single part named "file"`))),
    );
    parser.on('filesLimit', () => fail(badRequest('One file per upload: the body must be a single part named "file"')));
    parser.on('fieldsLimit', () => fail(badRequest('Unexpected multipart field: the body must be a single part named "file"')));
    parser.on('error', (err: Error) => fail(badRequest(`Malformed multipart payload: ${err.message}`)));
    parser.on('close', () => {
      if (settled) return;
      if (!file) return fail(badRequest('Missing multipart part named "file"'));
      if (!file.done) return fail(badRequest('Malformed multipart payload: the file part is incomplete'));
      settled = true;
      file.content.push(null);
    });
    body.on('error', (err) => fail(badRequest(`The upload was interrupted: ${err.message}`)));
    body.on('aborted', () => fail(badRequest('The upload was interrupted')));
    body.pipe(parser);
  });
}

/** What an upload route declares of its body: the file's limits, and the most the whole request may declare. */
export interface SingleFileBodySpec extends MultipartLimits {
  /** A request whose Content-Length is over this is refused before a byte is read. */
  readonly maxRequestBytes: number;
  /** What the document says of the file. */
  readonly description: string;
}

/**
 * A `multipart/form-data` body of one file in the part named `file` (readSingleFile), as a request
 * declaration's body: the document shows the part, the rule reads it.
 */
export function singleFileBody(spec: SingleFileBodySpec): BodyRule<ReceivedFile> {
  return {
    contentType: 'multipart/form-data',
    schema: { type: 'object', properties: { [FILE_PART]: { type: 'string', format: 'binary', description: spec.description } }, required: [FILE_PART] },
    required: true,
    read: (req) => {
      const declared = Number(req.header('content-length'));
      if (Number.isFinite(declared) && declared > spec.maxRequestBytes) throw badRequest(`The file is over the ${spec.maxFileLabel} upload limit`);
      return readSingleFile(req.bodyStream(), req.header('content-type'), spec);
    },
  };
}
