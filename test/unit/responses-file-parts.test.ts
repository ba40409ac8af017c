/**
 * The `input_image` / `input_file` parts of a Responses API message, read into what the turn must do
 * with each (nothing decoded or fetched here), and every malformed part refused with its path.
 */
import { describe, expect, it } from 'vitest';
import { parseFilePart } from '../../functions/chat/domain/responses-file-parts';
import { parseInput, parseItemList } from '../../functions/chat/domain/responses-input';
import { rejection } from '../support/domain-error';

function expectBadRequest(fn: () => unknown, message: unknown): void {
  const err = rejection(fn);
  expect(err.code).toBe('bad_request');
  expect(err.message).toEqual(message);
}

const AT = 'input[0].content[1]';

describe('parseFilePart', () => {
  it('reads each source: an upload id, a data URL named by its media type, bare base64 named by filename, an https URL', () => {
    expect(parseFilePart({ type: 'input_image', file_id: 'f-1', detail: 'high' }, AT)).toEqual({
      type: 'input_image',
      at: `${AT}.file_id`,
      source: { from: 'file_id', fileId: 'f-1' },
    });
    expect(parseFilePart({ type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/' }, AT).source).toEqual({
      from: 'data',
      base64: '/9j/',
      fileName: 'image.jpg',
    });
    expect(parseFilePart({ type: 'input_file', file_data: 'data:application/pdf;base64,JVBE' }, AT).source).toEqual({
      from: 'data',
      base64: 'JVBE',
      fileName: 'document.pdf',
    });
    expect(parseFilePart({ type: 'input_file', file_data: 'UEsD', filename: 'a.docx' }, AT)).toEqual({
      type: 'input_file',
      at: `${AT}.file_data`,
      source: { from: 'data', base64: 'UEsD', fileName: 'a.docx' },
    });
    expect(parseFilePart({ type: 'input_file', file_url: 'https://example.com/x', filename: 'x.pdf' }, AT).source).toEqual({
      from: 'url',
      url: 'https://example.com/x',
      fileName: 'x.pdf',
    });
  });

  it.each([
    [{ type: 'input_image' }, `${AT} must have exactly one of image_url, file_id`],
    [{ type: 'input_image', image_url: 'https://a/b.png', file_id: 'x' }, `${AT} must have exactly one of image_url, file_id`],
    [{ type: 'input_image', image_url: 'http://a/b.png' }, `${AT}.image_url must be an https URL or a base64 data URL`],
    [{ type: 'input_image', image_url: 'data:image/png,abc' }, `${AT}.image_url must be a base64 data URL (data:<media type>;base64,<data>)`],
    [{ type: 'input_image', image_url: 'data:image/png;base64,abc' }, `${AT}.image_url is not valid base64`],
    [{ type: 'input_image', image_url: 'data:image/gif;base64,R0lG' }, `${AT}.image_url: an image must be image/png or image/jpeg, not image/gif`],
    [{ type: 'input_image', image_url: 'https://a/b.png', detail: 'max' }, `${AT}.detail must be low, high or auto`],
    [{ type: 'input_image', image_url: 'https://a/b.png', filename: 'b.png' }, `${AT} has unsupported fields: filename`],
    [{ type: 'input_file', file_data: 'UEsD' }, `${AT}.file_data: bare base64 needs ${AT}.filename (its extension gives the type), or send a data URL`],
    [
      { type: 'input_file', file_data: 'data:text/plain;base64,YQ==' },
      expect.stringMatching(/^input\[0\]\.content\[1\]\.file_data: unsupported media type text\/plain/),
    ],
    [{ type: 'input_file', file_id: 'x', filename: '../etc/passwd' }, `${AT}.filename must be a file name of at most 255 characters`],
    [{ type: 'input_file', file_url: '' }, `${AT}.file_url must be a non-empty string`],
  ])('refuses %j', (part, message) => {
    expectBadRequest(() => parseFilePart(part, AT), message);
  });
});

describe('parseInput with file parts', () => {
  it('keeps the text of a message and its files apart, on user, system and developer messages only', () => {
    const [user, system] = parseInput([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look: ' },
          { type: 'input_image', file_id: 'a' },
          { type: 'input_text', text: 'this' },
        ],
      },
      { role: 'developer', content: [{ type: 'input_file', file_id: 'b' }] },
    ]);
    expect(user).toEqual({
      kind: 'message',
      message: { role: 'user', content: 'Look: this' },
      files: [{ type: 'input_image', at: 'input[0].content[1].file_id', source: { from: 'file_id', fileId: 'a' } }],
    });
    expect(system).toMatchObject({ message: { role: 'system', content: '' }, files: [{ at: 'input[1].content[0].file_id' }] });
    expectBadRequest(
      () => parseInput([{ role: 'assistant', content: [{ type: 'input_image', file_id: 'a' }] }]),
      'input[0].content[0] must be a text part: files go in the input_image and input_file parts of a user, system or developer message',
    );
  });

  it("refuses file parts in a conversation's items: they are taken in a response's input only", () => {
    expectBadRequest(
      () => parseItemList([{ role: 'user', content: [{ type: 'input_image', file_id: 'a' }] }], 'items', 20),
      'items[0].content[0] must be text: input_image and input_file parts are taken in the input of POST /responses only',
    );
  });
});
