/**
 * The path parameters of the route table: every parameter of an export, release-notes, admin or console API path is
 * declared with its shape (RouteDef.pathParams), and each shape reads what the use cases mint.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fulfillmentId } from '../../functions/acp/domain/order-ids';
import type { PathParam } from '../../functions/kernel/domain/ids';
import { ROUTES } from '../../functions/routes';

const namesIn = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
const route = (id: string) => ROUTES.find((r) => r.id === id)!;

describe('path parameters', () => {
  it('every parameter of an export, release-notes, admin or console API path is declared, and nothing else is', () => {
    for (const r of ROUTES) {
      const declared = Object.keys(r.pathParams ?? {});
      if (r.area === 'export' || r.area === 'releaseNotes' || r.area === 'admin' || r.auth === 'consoleSession')
        expect(declared, r.id).toEqual(namesIn(r.path));
      else expect(declared, `${r.id}: area ${r.area} judges its own path ids`).toEqual([]);
    }
  });

  it('reads the ids the use cases mint, and nothing of another shape', () => {
    const uuid = randomUUID();
    const order = route('adminOrderDeliver').pathParams!;
    expect(order.orderId!.read(uuid)).toBe(uuid);
    expect(order.orderId!.read(uuid.toUpperCase())).toBe(uuid.toUpperCase());
    expect(order.fulfillmentId!.read(fulfillmentId(uuid))).toBe(fulfillmentId(uuid));
    for (const wrong of [uuid, `adj_${uuid}`, `${fulfillmentId(uuid)}0`, 'ful_', `FUL_${uuid}`, `xful_${uuid}`])
      expect(order.fulfillmentId!.read(wrong), wrong).toBeUndefined();
    for (const wrong of ['', 'x', fulfillmentId(uuid), `${uuid}0`]) expect(order.orderId!.read(wrong), wrong).toBeUndefined();
    expect(route('adminJobRun').pathParams!.jobName!.read('anything')).toBe('anything');
  });

  it('is the request atom: a schema and the rule that reads it (undefined: names no resource)', () => {
    const atom: PathParam = route('adminOrderGet').pathParams!.orderId!;
    expect(atom.schema).toMatchObject({ type: 'string', format: 'uuid' });
  });

  it('documents each shape as the read checks it', () => {
    const { fulfillmentId: ful, appId } = route('adminOrderDeliver').pathParams!;
    expect(new RegExp(ful!.schema.pattern as string).test(fulfillmentId(randomUUID()))).toBe(true);
    expect(appId!.schema).toMatchObject({ type: 'string', format: 'uuid' });
  });
});
