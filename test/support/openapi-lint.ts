/**
 * Lints an OpenAPI document in-process with the two linters its readers use: Spectral's `oas` ruleset
 * (recommended rules, as `spectral lint` runs it) and Redocly's `recommended` rules. Each finding is one
 * line: linter, severity, rule, where, message.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';

const { Document, Spectral } = spectralCore;
const { oas } = spectralRulesets;

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'];

export async function spectralFindings(doc: Record<string, unknown>): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), spectralParsers.Json, 'openapi.json'));
  return results.filter((r) => r.severity <= 1).map((r) => `spectral ${SPECTRAL_SEVERITY[r.severity]} ${String(r.code)} at ${r.path.join('.')}: ${r.message}`);
}

export async function redoclyFindings(doc: Record<string, unknown>): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc, null, 2), absoluteRef: '/openapi.json', config });
  return problems
    .filter((p) => p.severity === 'error' || p.severity === 'warn')
    .filter((p) => !(p.ruleId === 'operation-2xx-response' && p.location.every((l) => answersRedirect(doc, l.pointer ?? ''))))
    .map((p) => `redocly ${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
}

/**
 * A browser-flow operation (the console's login and callback) answers a redirect, not a 2XX: Redocly's
 * `operation-2xx-response` is waived for an operation whose documented success is a 3XX, and only there.
 */
function answersRedirect(doc: Record<string, unknown>, pointer: string): boolean {
  const at = pointer
    .replace(/^#\//, '')
    .split('/')
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, seg) => (node as Record<string, unknown> | undefined)?.[seg], doc);
  return typeof at === 'object' && at !== null && Object.keys(at).some((status) => /^3\d\d$/.test(status));
}
