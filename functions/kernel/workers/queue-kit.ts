/**
 * The one shape of every SQS consumer. Each record runs in its own promise, first through the
 * consumer's `parse` (JSON and a schema), then its `handle`:
 * - a record that cannot be parsed is poison: no retry can fix it, so it fails alone (a partial batch
 *   failure, which SQS dead-letters after maxReceiveCount), logged once at ERROR with its message id
 *   and the reason (SQS keeps the id through the redrive: that line explains a dead letter) and counted
 *   as `PoisonMessages`;
 * - a record whose handling throws is a partial batch failure too, retried by redelivery;
 * - every other record of the batch completes once, whatever its neighbours do.
 * Nothing is caught and dropped; message bodies are never logged.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import type { Telemetry } from '../app/kernel-ports';

export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export interface ConsumerOptions<M> {
  /** Names the consumer in log lines and in the `PoisonMessages` metric's `consumer` dimension. */
  readonly name: string;
  /** Handle the records of a batch at the same time (independent messages) or one after another. */
  readonly concurrent: boolean;
  /** The message in a body, or a throw whose message says what is wrong with it (never the body itself). */
  readonly parse: (body: string) => M;
  readonly handle: (message: M, record: SQSRecord, context: Context) => Promise<void>;
}

type Outcome = { readonly ok: true } | { readonly ok: false; readonly poison: boolean; readonly error: unknown };

/** A reason is an error message of the parser: bounded, so a pathological body cannot flood the log through it. */
const MAX_REASON_CHARS = 500;

export function sqsConsumer<M>(deps: Telemetry, opts: ConsumerOptions<M>): QueueHandler {
  // Inside an async function a synchronous throw of `parse` or `handle` becomes this record's outcome.
  const run = async (record: SQSRecord, context: Context): Promise<Outcome> => {
    let message: M;
    try {
      message = opts.parse(record.body);
    } catch (error) {
      return { ok: false, poison: true, error };
    }
    try {
      await opts.handle(message, record, context);
      return { ok: true };
    } catch (error) {
      return { ok: false, poison: false, error };
    }
  };

  const core = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const outcomes: Outcome[] = [];
    if (opts.concurrent) outcomes.push(...(await Promise.all(event.Records.map((r) => run(r, context)))));
    else for (const r of event.Records) outcomes.push(await run(r, context));
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    let poisoned = 0;
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) return;
      const messageId = event.Records[i]!.messageId;
      batchItemFailures.push({ itemIdentifier: messageId });
      if (outcome.poison) {
        poisoned++;
        deps.logger.error(`${opts.name} message cannot be parsed; it fails alone and is dead-lettered after its last receive`, {
          messageId,
          consumer: opts.name,
          poison: true,
          reason: reasonOf(outcome.error),
        });
      } else {
        deps.logger.error(`${opts.name} message failed; it will be retried`, { messageId, consumer: opts.name, error: outcome.error as Error });
      }
    });
    if (poisoned > 0) {
      // A single metric is emitted at once: a batch without poison writes no empty EMF flush (and no
      // Powertools "no metrics" warning) on every invocation.
      const metric = deps.metrics.singleMetric();
      metric.addDimension('consumer', opts.name);
      metric.addMetric('PoisonMessages', MetricUnit.Count, poisoned);
    }
    return { batchItemFailures };
  };
  return middy(core).use(injectLambdaContext(deps.logger, { logEvent: false })) as unknown as QueueHandler;
}

/** Thrown by a consumer's `parse`: what is wrong with a body, in words that quote none of it. */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}

/** `zod/mini` registers no locale: each parse is given English messages, as in functions/kernel/http/validation.ts. */
const ENGLISH = en().localeError;

/**
 * A consumer's `parse` from a schema: the body must be JSON and match it. V8's own JSON errors quote
 * the start of the text, so they are replaced; zod's issues name the path and the rule, not the value.
 */
export function jsonBody<S extends z.ZodMiniType>(schema: S): (body: string) => z.output<S> {
  return (body) => parseJson(body, schema);
}

/** JSON text matched against `schema`, or a PoisonMessageError saying why not. */
export function parseJson<S extends z.ZodMiniType>(text: string, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const at = /at position (\d+)/.exec((err as Error).message)?.[1];
    throw new PoisonMessageError(`not JSON (${text.length} characters${at !== undefined ? `, invalid at position ${at}` : ''})`);
  }
  return matchSchema(value, schema);
}

/** A parsed value matched against `schema`, or a PoisonMessageError naming each broken rule and where. */
export function matchSchema<S extends z.ZodMiniType>(value: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(value, { error: ENGLISH });
  if (parsed.success) return parsed.data;
  throw new PoisonMessageError(parsed.error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : 'message'}: ${i.message}`).join('; '));
}

/** The Lambda entry of a consumer module: production deps and the handler built on first call. */
export function lambdaQueueHandler<D extends Telemetry>(factory: (deps: D) => QueueHandler, production: () => D): QueueHandler {
  let built: QueueHandler | undefined;
  return (event, context) => {
    built ??= factory(production());
    return built(event, context);
  };
}
