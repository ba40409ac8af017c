/**
 * `input_image` and `input_file` parts of a Responses API message (OpenAI's shapes), read into what the
 * chat turn must do with each: use an uploaded file by its id, decode inline bytes (a base64 data URL,
 * or bare base64 with a file name), or fetch an https URL. Nothing is fetched or decoded here: the app
 * layer does that (app/resolve-input-files.ts), with the upload route's checks.
 */
import { badRequest } from '../../kernel/domain/errors';
import { isRecord } from '../../kernel/domain/request-rule';
import { ACCEPTED_EXTENSIONS } from '../../conversations/domain/file';
import { onlyKeys, present } from './request-fields';

export type FilePartType = 'input_image' | 'input_file';

/** Where a part's file comes from. */
export type FilePartSource =
  | { readonly from: 'file_id'; readonly fileId: string }
  /** Base64 bytes; `fileName` carries the type (by extension), as an upload's name does. */
  | { readonly from: 'data'; readonly base64: string; readonly fileName: string }
  /** An https URL; `fileName` when the client named the file, else the URL or the answer's type names it. */
  | { readonly from: 'url'; readonly url: string; readonly fileName?: string };

/** One file part: its type, the path of the field that names the file (for errors), and its source. */
export interface FilePart {
  readonly type: FilePartType;
  readonly at: string;
  readonly source: FilePartSource;
}

const MAX_FILE_NAME = 255;
const MAX_URL = 2048;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,]*)*);base64,(.*)$/is;
const MEDIA_TYPE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ACCEPTED_EXTENSIONS)
    .filter(([ext]) => ext !== '.jpeg')
    .map(([ext, t]) => [t.mimeType, `${t.kind === 'image' ? 'image' : 'document'}${ext}`]),
);
const ACCEPTED_MEDIA_TYPES = Object.keys(MEDIA_TYPE_NAMES).join(', ');
const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg'];

/** A file name for a media type the upload route accepts (`image.png`, `document.pdf`, …), or undefined. */
export function fileNameOfMediaType(mediaType: string): string | undefined {
  return MEDIA_TYPE_NAMES[mediaType.toLowerCase()];
}

function base64Of(text: string, at: string): string {
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) throw badRequest(`${at} is not valid base64`);
  return text;
}

/** A `data:<type>;base64,<bytes>` URL: its bytes, and a name for its media type (the part's `filename` wins). */
function dataUrl(raw: string, at: string, type: FilePartType, fileName: string | undefined): FilePartSource {
  const m = DATA_URL.exec(raw);
  if (!m) throw badRequest(`${at} must be a base64 data URL (data:<media type>;base64,<data>)`);
  const mediaType = m[1]!.toLowerCase();
  if (type === 'input_image' && !IMAGE_MEDIA_TYPES.includes(mediaType))
    throw badRequest(`${at}: an image must be image/png or image/jpeg, not ${mediaType.slice(0, 100)}`);
  const named = fileName ?? fileNameOfMediaType(mediaType);
  if (!named) throw badRequest(`${at}: unsupported media type ${mediaType.slice(0, 100)}. Accepted types: ${ACCEPTED_MEDIA_TYPES}`);
  return { from: 'data', base64: base64Of(m[3]!, at), fileName: named };
}

function urlSource(raw: string, at: string, type: FilePartType, fileName: string | undefined): FilePartSource {
  if (raw.length > MAX_URL) throw badRequest(`${at} is too long: at most ${MAX_URL} characters`);
  if (/^data:/i.test(raw)) return dataUrl(raw, at, type, fileName);
  if (!/^https:\/\//i.test(raw)) throw badRequest(`${at} must be an https URL or a base64 data URL`);
  return { from: 'url', url: raw, ...(fileName !== undefined ? { fileName } : {}) };
}

function stringOf(v: unknown, at: string): string {
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`${at} must be a non-empty string`);
  return v;
}

function fileIdOf(v: unknown, at: string): FilePartSource {
  const fileId = stringOf(v, at);
  if (fileId.length > 256) throw badRequest(`${at} must be the fileId of an upload (POST /chat/files)`);
  return { from: 'file_id', fileId };
}

/** Exactly one of `keys` is present in `part`; its name. */
function oneOf(part: Record<string, unknown>, keys: readonly string[], where: string): string {
  const given = keys.filter((k) => present(part[k]));
  if (given.length !== 1) throw badRequest(`${where} must have exactly one of ${keys.join(', ')}`);
  return given[0]!;
}

/** An `input_image` or `input_file` part at `where` (`input[2].content[1]`). */
export function parseFilePart(part: Record<string, unknown>, where: string): FilePart {
  if (part.type === 'input_image') {
    onlyKeys(part, ['type', 'image_url', 'file_id', 'detail'], where);
    if (present(part.detail) && !['low', 'high', 'auto'].includes(part.detail as string)) throw badRequest(`${where}.detail must be low, high or auto`);
    const key = oneOf(part, ['image_url', 'file_id'], where);
    const at = `${where}.${key}`;
    const source = key === 'file_id' ? fileIdOf(part.file_id, at) : urlSource(stringOf(part.image_url, at), at, 'input_image', undefined);
    return { type: 'input_image', at, source };
  }
  onlyKeys(part, ['type', 'file_id', 'file_data', 'file_url', 'filename'], where);
  let fileName: string | undefined;
  if (present(part.filename)) {
    fileName = stringOf(part.filename, `${where}.filename`);
    if (fileName.length > MAX_FILE_NAME || /[\u0000-\u001f/\\]/.test(fileName)) {
      throw badRequest(`${where}.filename must be a file name of at most ${MAX_FILE_NAME} characters`);
    }
  }
  const key = oneOf(part, ['file_id', 'file_data', 'file_url'], where);
  const at = `${where}.${key}`;
  if (key === 'file_id') return { type: 'input_file', at, source: fileIdOf(part.file_id, at) };
  if (key === 'file_url') return { type: 'input_file', at, source: urlSource(stringOf(part.file_url, at), at, 'input_file', fileName) };
  const data = stringOf(part.file_data, at);
  if (/^data:/i.test(data)) return { type: 'input_file', at, source: dataUrl(data, at, 'input_file', fileName) };
  if (fileName === undefined) throw badRequest(`${at}: bare base64 needs ${where}.filename (its extension gives the type), or send a data URL`);
  return { type: 'input_file', at, source: { from: 'data', base64: base64Of(data, at), fileName } };
}

export function isFilePart(part: unknown): part is Record<string, unknown> {
  return isRecord(part) && (part.type === 'input_image' || part.type === 'input_file');
}

/** The JSON Schemas of the two parts, in OpenAI's shapes. */
export const IMAGE_PART = {
  type: 'object',
  title: 'InputImage',
  properties: {
    type: { const: 'input_image' },
    image_url: { type: 'string', maxLength: MAX_URL, description: 'An https URL (fetched once, at most 20 MB in 10 s) or a base64 data URL of a PNG or JPEG' },
    file_id: { type: 'string', description: 'The fileId of an upload (POST /chat/files)' },
    detail: { enum: ['low', 'high', 'auto'], description: 'Accepted and ignored' },
  },
  required: ['type'],
  additionalProperties: false,
  description: 'An image for the model: exactly one of image_url and file_id',
};
export const FILE_PART = {
  type: 'object',
  title: 'InputFile',
  properties: {
    type: { const: 'input_file' },
    file_id: { type: 'string', description: 'The fileId of an upload (POST /chat/files)' },
    file_data: { type: 'string', description: 'A base64 data URL, or bare base64 with filename' },
    file_url: { type: 'string', maxLength: MAX_URL, description: 'An https URL, fetched once (at most 20 MB in 10 s)' },
    filename: { type: 'string', maxLength: MAX_FILE_NAME, description: 'The file name; its extension gives the type' },
  },
  required: ['type'],
  additionalProperties: false,
  description: 'A PNG, JPEG, PDF or DOCX file for the model: exactly one of file_id, file_data and file_url',
};
