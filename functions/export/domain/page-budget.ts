/**
 * What a page of the export may weigh. A Lambda function answers API Gateway with at most 6 MB: the
 * proxy result is JSON in which the body is a string, so each character a JSON body escapes (a quote, a
 * backslash) is escaped once more there. A row is measured as it travels, escaped twice, and a page
 * holds rows up to 5,000,000 bytes of that: the rest of the 6 MB is the envelope and the headers.
 */
export const MAX_PAGE_BYTES = 5_000_000;

/** The bytes a presented row takes in the proxy result (JSON inside a JSON string), with its separator. */
export function responseBytes(row: unknown): number {
  return Buffer.byteLength(JSON.stringify(JSON.stringify(row)), 'utf8') - 2 + 1;
}
