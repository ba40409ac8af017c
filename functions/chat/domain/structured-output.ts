/**
 * Structured output (`response_format`): what a model is told when it has no native support, how the
 * platform checks an answer, and the one repair request a model gets when its answer is invalid.
 */
import type { ResponseFormat } from './client-tools';
import { jsonSchemaProblems, parseJsonAnswer } from './json-schema-check';

/** The problems of an answer against the requested format; empty when it conforms (plain text always does). */
export function answerProblems(format: ResponseFormat, text: string): string[] {
  if (format.type === 'text') return [];
  const parsed = parseJsonAnswer(text);
  if (!parsed) return ['the answer is not JSON'];
  if (format.type === 'json_object') {
    const v = parsed.value;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? [] : ['the answer is not a JSON object'];
  }
  return jsonSchemaProblems(format.schema, parsed.value);
}

/** The answer as the client gets it: the JSON text, without a code fence a model may have put around it. */
export function conformingText(format: ResponseFormat, text: string): string {
  if (format.type === 'text') return text;
  return parseJsonAnswer(text)?.json ?? text;
}

/** A system instruction for models that cannot be given the format natively (Bedrock Converse). */
export function formatInstruction(format: ResponseFormat): string | undefined {
  if (format.type === 'json_object') return 'Answer with one JSON object and nothing else: no prose, no code fence.';
  if (format.type === 'json_schema')
    return `Answer with one JSON value valid against this JSON Schema ("${format.name}") and nothing else: no prose, no code fence.\n${JSON.stringify(format.schema)}`;
  return undefined;
}

/** The user message of the one repair attempt: what was wrong with the previous answer. */
export function repairRequest(problems: readonly string[]): string {
  return `Your previous answer did not match the required format:\n${problems.map((p) => `- ${p}`).join('\n')}\nAnswer again with only the corrected JSON.`;
}
