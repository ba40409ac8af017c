/**
 * Header templates of MCP connections: `{{session.<name>}}` is replaced by the session variable of that
 * name. A header whose template names a variable the session does not have, or whose rendered value
 * would not be a valid header value, is left out rather than sent half-rendered.
 */
const PLACEHOLDER = /\{\{\s*session\.([a-zA-Z_][a-zA-Z0-9_-]{0,63})\s*\}\}/g;

export function renderHeaders(templates: Readonly<Record<string, string>>, variables: Readonly<Record<string, string>>): Record<string, string> {
  // Null prototype: a header named `__proto__` is a header, not an assignment to the prototype.
  const out = Object.create(null) as Record<string, string>;
  for (const [name, template] of Object.entries(templates)) {
    let missing = false;
    const value = template.replace(PLACEHOLDER, (_, v: string) => {
      // Own entries only: a template naming `constructor` must not render Object.prototype's function.
      const found = Object.hasOwn(variables, v) ? variables[v] : undefined;
      if (found === undefined) missing = true;
      return found ?? '';
    });
    // CR, LF and NUL would split or end the header; characters above U+00FF are not a header value at
    // all (fetch refuses the whole request over them).
    if (missing || /[\r\n\0]|[^\u0000-\u00ff]/.test(value)) continue;
    out[name] = value;
  }
  return out;
}

/** The variable names a set of templates refers to. */
export function referencedVariables(templates: Readonly<Record<string, string>>): Set<string> {
  const names = new Set<string>();
  for (const template of Object.values(templates)) for (const m of template.matchAll(PLACEHOLDER)) names.add(m[1]!);
  return names;
}
