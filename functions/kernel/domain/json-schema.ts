/**
 * JSON Schema (2020-12) of what a request check accepts, written beside the check itself so the OpenAPI
 * document shows the rule the code runs (area C's check vocabulary, area B's chat fields).
 */
export type JsonSchema = Readonly<Record<string, unknown>>;
