/**
 * The request-target of an HTTP request as the local server routes it. Node hands over whatever the
 * client wrote after the method (`//`, `/\`, `//[/x`, `http://host/x`, `*`), and the WHATWG `URL`
 * parser throws on some of it; this reader never throws: every target has a path and a query, and
 * one that names no route is answered 404 like any other.
 */

/** CloudFront refuses a longer URL with 414, so the front door never forwards one. */
export const MAX_TARGET_BYTES = 8192;

export interface RequestTarget {
  /** The path as sent (still percent-encoded): routes match on it, and path parameters are decoded after. */
  readonly pathname: string;
  /** Name and value pairs in order, decoded as forms are (`+` is a space, a bad escape stays literal). */
  readonly query: readonly (readonly [string, string])[];
}

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

export function parseRequestTarget(raw: string | undefined): RequestTarget {
  let target = raw ?? '/';
  // absolute-form (`GET http://host/path`): the authority is not ours to trust; only the path counts.
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const mark = target.indexOf('?');
  const pathname = mark >= 0 ? target.slice(0, mark) : target;
  const query = mark >= 0 ? [...new URLSearchParams(target.slice(mark + 1))] : [];
  return { pathname, query };
}

/** `decodeURIComponent`, except that a value with a malformed escape (`%zz`) is kept as sent: it then names no resource. */
export function decodePathValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
