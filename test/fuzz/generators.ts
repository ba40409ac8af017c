/**
 * The one arbitrary the fuzzer samples: an operation of the document, its valid base request, and one
 * hostile mutation of a class (method, target, query, header, body). Limits the router contract fixes
 * whatever the class (a target over 8192 bytes is a 414, a head over 16 KB a 431) are applied last.
 */
import fc from 'fast-check';
import { baseArb, type Base, type FuzzContext } from './base-request';
import { jsonBodyArbFor, unexpectedBodyArbFor } from './gen-json-bodies';
import { multipartArbFor } from './gen-multipart';
import { headerArbFor, queryArbFor } from './gen-query-headers';
import { methodArbFor, targetArbFor } from './gen-wire';
import { toWire, type HostileRequest } from './hostile-request';

/** The longest request target the router serves. */
export const MAX_TARGET_BYTES = 8192;
/** The largest request head (request line and headers) the router reads: Node's default. */
export const MAX_HEAD_BYTES = 16 * 1024;

function classArb(ctx: FuzzContext, base: Base): fc.Arbitrary<HostileRequest> {
  const body = !base.op.body ? unexpectedBodyArbFor(base) : base.op.body.contentType === 'multipart/form-data' ? multipartArbFor(base) : jsonBodyArbFor(base);
  return fc.oneof(
    { weight: 2, arbitrary: methodArbFor(ctx.model, base) },
    { weight: 3, arbitrary: targetArbFor(base) },
    { weight: 2, arbitrary: queryArbFor(base) },
    { weight: 4, arbitrary: headerArbFor(ctx, base) },
    // Uploads stream their body through a parser of their own: the process-crash class lives there.
    { weight: !base.op.body ? 1 : base.op.body.contentType === 'multipart/form-data' ? 10 : 5, arbitrary: body },
  );
}

/** The limits that decide the answer before anything else does. */
function withLimits(req: HostileRequest): HostileRequest {
  if (req.target.length > MAX_TARGET_BYTES) return { ...req, expect: [414] };
  const head = toWire(req).head.length;
  if (head > MAX_HEAD_BYTES) return { ...req, expect: [431] };
  return req;
}

export function hostileArb(ctx: FuzzContext): fc.Arbitrary<HostileRequest> {
  return fc
    .constantFrom(...ctx.model.operations)
    .chain((op) => baseArb(ctx, op))
    .chain((base) => classArb(ctx, base))
    .map(withLimits);
}
