/**
 * The changes to an order after the sale, each in its dialog saying what it will do: fulfil what is
 * not sent yet (with carrier and tracking), refund units that came back (the amount said before it is
 * sent), and cancel (typed confirmation; what was not sent goes back to stock, and the rest of the
 * charge is refunded unless unticked).
 */
import { useState } from 'preact/hooks';
import { callApi } from '../api-client';
import { money, type OrderDetailView, taxOf } from '../catalog-views';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Dialog } from '../components/dialog';
import { Field } from '../components/field';
import { useAction } from '../use-load';

export const ORDER_REASON = 'Only owners and admins change orders';

interface Props {
  /** The order's console API path. */
  readonly path: string;
  readonly order: OrderDetailView;
  readonly onClose: () => void;
  /** After the change: what happened, in a sentence. */
  readonly onDone: (said: string) => void;
}

type Answer = { data: OrderDetailView };

/** Units of each line still on the order and not sent: what a fulfilment without `lines` sends. */
export function unsentUnits(o: OrderDetailView): { title: string; quantity: number }[] {
  const progress = new Map((o.acpOrder.line_items ?? []).map((l) => [l.id, l.quantity]));
  return o.lines
    .map((l) => {
      const q = progress.get(l.lineId);
      return { title: l.title, quantity: q ? q.current - q.fulfilled : l.quantity };
    })
    .filter((u) => u.quantity > 0);
}

/** Lines with sent units still on the order: those can come back with a refund. */
export function returnableLines(o: OrderDetailView) {
  const progress = new Map((o.acpOrder.line_items ?? []).map((l) => [l.id, l.quantity]));
  return o.lines.map((line) => ({ line, returnable: progress.get(line.lineId)?.fulfilled ?? 0 })).filter((x) => x.returnable > 0);
}

const unitsText = (units: readonly { title: string; quantity: number }[]) => units.map((u) => `${u.quantity} × ${u.title}`).join(', ');

export function FulfilDialog({ path, order, onClose, onDone }: Props) {
  const [type, setType] = useState<'shipping' | 'digital'>('shipping');
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [trackingUrl, setTrackingUrl] = useState('');
  const [delivered, setDelivered] = useState(false);
  const act = useAction();
  const units = unsentUnits(order);
  const submit = async (e: Event) => {
    e.preventDefault();
    const shipping = type === 'shipping';
    const body = {
      type,
      ...(shipping ? { status: delivered ? 'delivered' : 'shipped' } : {}),
      ...(shipping && carrier.trim() ? { carrier: carrier.trim() } : {}),
      ...(shipping && tracking.trim() ? { trackingNumber: tracking.trim() } : {}),
      ...(shipping && trackingUrl.trim() ? { trackingUrl: trackingUrl.trim() } : {}),
    };
    const answer = await act.run(() => callApi<Answer>(`${path}/fulfillments`, { method: 'POST', body }));
    if (answer) onDone(`Fulfilment recorded (${unitsText(units)}). The order is now ${answer.data.status}.`);
  };
  return (
    <Dialog title="Fulfil the order" onClose={onClose}>
      <form onSubmit={submit}>
        <p>Sends every unit not sent yet: {unitsText(units)}. The buyer’s agent platform is told.</p>
        <Field label="How it is sent">
          {({ id }) => (
            <select id={id} value={type} onChange={(e) => setType(e.currentTarget.value as 'shipping' | 'digital')}>
              <option value="shipping">Shipping</option>
              <option value="digital">Digital (delivered at once)</option>
            </select>
          )}
        </Field>
        {type === 'shipping' && (
          <>
            <Field label="Carrier" hint="Optional, e.g. UPS.">
              {({ id, describedBy }) => (
                <input id={id} aria-describedby={describedBy} maxLength={100} value={carrier} onInput={(e) => setCarrier(e.currentTarget.value)} />
              )}
            </Field>
            <Field label="Tracking number" hint="Optional.">
              {({ id, describedBy }) => (
                <input id={id} aria-describedby={describedBy} maxLength={100} value={tracking} onInput={(e) => setTracking(e.currentTarget.value)} />
              )}
            </Field>
            <Field label="Tracking URL" hint="Optional https address where the buyer follows the parcel.">
              {({ id, describedBy }) => (
                <input
                  id={id}
                  type="url"
                  aria-describedby={describedBy}
                  maxLength={2048}
                  value={trackingUrl}
                  onInput={(e) => setTrackingUrl(e.currentTarget.value)}
                />
              )}
            </Field>
            <label class="check">
              <input type="checkbox" checked={delivered} onChange={(e) => setDelivered(e.currentTarget.checked)} /> Already delivered
            </label>
          </>
        )}
        {act.error && <p role="alert">{act.error}</p>}
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={act.busy}>
            {act.busy ? 'Working…' : 'Record the fulfilment'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function RefundDialog({ path, order, onClose, onDone }: Props) {
  const lines = returnableLines(order);
  const [lineId, setLineId] = useState(lines[0]?.line.lineId ?? '');
  const [quantity, setQuantity] = useState('1');
  const [reason, setReason] = useState('');
  const act = useAction();
  const chosen = lines.find((x) => x.line.lineId === lineId) ?? lines[0];
  const units = /^\d+$/.test(quantity) ? Number(quantity) : 0;
  const valid = chosen !== undefined && units >= 1 && units <= chosen.returnable;
  const goods = chosen ? chosen.line.unitAmount * units : 0;
  const amount = Math.min(goods + taxOf(goods, order.taxRateBps), order.total - order.refunded);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!valid || !chosen) return;
    const body = { amount, lines: [{ lineId: chosen.line.lineId, quantity: units }], ...(reason.trim() ? { reason: reason.trim() } : {}) };
    const answer = await act.run(() => callApi<Answer>(`${path}/refunds`, { method: 'POST', body }));
    if (answer)
      onDone(`Refunded ${money(amount, order.currency)} for ${units} × ${chosen.line.title}. Refunded in all: ${money(answer.data.refunded, order.currency)}.`);
  };
  return (
    <Dialog title="Refund returned units" onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Line">
          {({ id }) => (
            <select id={id} value={lineId} onChange={(e) => setLineId(e.currentTarget.value)}>
              {lines.map((x) => (
                <option key={x.line.lineId} value={x.line.lineId}>
                  {x.line.title} ({x.returnable} sent)
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Units returned" hint={chosen ? `1 to ${chosen.returnable}; they go back to stock.` : undefined}>
          {({ id, describedBy }) => (
            <input id={id} aria-describedby={describedBy} inputMode="numeric" required value={quantity} onInput={(e) => setQuantity(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Reason" hint="Optional; the buyer’s agent platform sees it.">
          {({ id, describedBy }) => (
            <input id={id} aria-describedby={describedBy} maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          )}
        </Field>
        <p aria-live="polite">
          {valid
            ? `The buyer gets ${money(amount, order.currency)} back (${units} × ${money(chosen!.line.unitAmount, order.currency)} plus its tax).`
            : 'Give a number of units that were sent.'}
        </p>
        {act.error && <p role="alert">{act.error}</p>}
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={!valid || act.busy}>
            {act.busy ? 'Working…' : valid ? `Refund ${money(amount, order.currency)}` : 'Refund'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function CancelDialog({ path, order, onClose, onDone }: Props) {
  const [refund, setRefund] = useState(true);
  const [reason, setReason] = useState('');
  const act = useAction();
  const left = order.total - order.refunded;
  const unsent = unsentUnits(order);
  const confirm = async () => {
    const body = { refund, ...(reason.trim() ? { reason: reason.trim() } : {}) };
    const answer = await act.run(() => callApi<Answer>(`${path}/cancel`, { method: 'POST', body }));
    if (answer) onDone(`The order is canceled. Refunded in all: ${money(answer.data.refunded, order.currency)}.`);
  };
  return (
    <ConfirmDialog
      title="Cancel the order"
      confirmText="cancel"
      actionLabel="Cancel the order"
      busy={act.busy}
      error={act.error}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>
        {unsent.length
          ? `The units not sent yet leave the order and go back to stock: ${unitsText(unsent)}.`
          : 'Every unit was sent already: none goes back to stock.'}{' '}
        Sent units stay on the order. The buyer’s agent platform is told.
      </p>
      <label class="check">
        <input type="checkbox" checked={refund} disabled={left <= 0} onChange={(e) => setRefund(e.currentTarget.checked)} /> Refund what is not refunded yet (
        {money(Math.max(0, left), order.currency)})
      </label>
      <Field label="Reason" hint="Optional; the buyer’s agent platform sees it.">
        {({ id, describedBy }) => (
          <input id={id} aria-describedby={describedBy} maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        )}
      </Field>
    </ConfirmDialog>
  );
}
