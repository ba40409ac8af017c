/**
 * What every streamed answer of area B shares: the Server-Sent Events headers, and a turn drained to
 * its end when its client left. A module apart from chat-turn-route.ts so that a route that only
 * replays a stored stream (GET /responses/{id}) bundles none of a chat turn.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { TurnEvent, TurnResult } from '../app/run-chat-turn';

/** The headers of a streamed answer (Server-Sent Events). */
export const SSE_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' };

/** A stream that ends early because the client left: the turn still runs to its end, so it is recorded and billed. */
export async function drainTurn(run: AsyncGenerator<TurnEvent, TurnResult>, logger: Logger): Promise<void> {
  try {
    while (!(await run.next()).done);
  } catch (err) {
    logger.error('chat turn failed after the client disconnected', err as Error);
  }
}
