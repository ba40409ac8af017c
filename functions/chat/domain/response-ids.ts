/**
 * The ids of the Responses API name what they stand for, so nothing maps them: a response id and its
 * output items carry the session and the stored answer message (two UUIDs as 64 hex digits). A
 * `previous_response_id` continues that session; an `item_reference` reads that message. A
 * conversation is a session (`conv_` and its UUID as 32 hex digits), and each of its items names the
 * message it is part of: `msg_` its text, `fc_…_<n>` its n-th function call, `fco_` a function call's output.
 */
const HEX = /^[0-9a-f]{32}$/;

const hexOf = (uuid: string) => uuid.replace(/-/g, '');
const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export interface AnswerRef {
  readonly sessionId: string;
  readonly messageId: string;
}

export const responseId = (a: AnswerRef) => `resp_${hexOf(a.sessionId)}${hexOf(a.messageId)}`;
export const messageItemId = (a: AnswerRef) => `msg_${hexOf(a.sessionId)}${hexOf(a.messageId)}`;
export const functionCallItemId = (a: AnswerRef, index: number) => `fc_${hexOf(a.sessionId)}${hexOf(a.messageId)}_${index}`;
export const functionCallOutputItemId = (a: AnswerRef) => `fco_${hexOf(a.sessionId)}${hexOf(a.messageId)}`;
export const conversationId = (sessionId: string) => `conv_${hexOf(sessionId)}`;

/** The session a conversation id names; undefined when it is no id of this platform. */
export function conversationSession(id: string): string | undefined {
  const m = /^conv_([0-9a-f]{32})$/.exec(id);
  return m ? uuidOf(m[1]!) : undefined;
}

function refOf(hex: string): AnswerRef | undefined {
  const session = hex.slice(0, 32);
  const message = hex.slice(32);
  return HEX.test(session) && HEX.test(message) ? { sessionId: uuidOf(session), messageId: uuidOf(message) } : undefined;
}

/** The session and answer a response id names; undefined when it is no id of this platform. */
export function responseIdRef(id: string): AnswerRef | undefined {
  const m = /^resp_([0-9a-f]{64})$/.exec(id);
  return m ? refOf(m[1]!) : undefined;
}

/** The session a response id names; undefined when it is no id of this platform. */
export function responseIdSession(id: string): string | undefined {
  return responseIdRef(id)?.sessionId;
}

/** What an output item id names: an answer's text (`msg_`) or one of its function calls (`fc_`). */
export function itemIdTarget(id: string): (AnswerRef & { readonly call?: number }) | undefined {
  const msg = /^msg_([0-9a-f]{64})$/.exec(id);
  if (msg) return refOf(msg[1]!);
  const fc = /^fc_([0-9a-f]{64})_(\d{1,3})$/.exec(id);
  if (!fc) return undefined;
  const ref = refOf(fc[1]!);
  return ref ? { ...ref, call: Number(fc[2]) } : undefined;
}

/** What a conversation item id names: a message's text, one of its function calls, or a function call's output. */
export function conversationItemTarget(id: string): (AnswerRef & { readonly part: 'text' | 'output' | number }) | undefined {
  const output = /^fco_([0-9a-f]{64})$/.exec(id);
  if (output) {
    const ref = refOf(output[1]!);
    return ref ? { ...ref, part: 'output' } : undefined;
  }
  const target = itemIdTarget(id);
  if (!target) return undefined;
  return { sessionId: target.sessionId, messageId: target.messageId, part: target.call ?? 'text' };
}
