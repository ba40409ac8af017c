/**
 * One order after the sale: its lines, totals and status, what was sent and refunded, the changes an
 * owner or admin makes (fulfil, deliver, refund, cancel), and the order events sent to the buyer's
 * agent platform. Every change reloads the order and its events and says what happened.
 */
import { useState } from 'preact/hooks';
import { callApi } from '../api-client';
import { appPath, catalogHref, money, type OrderDetailView, type OrderEventsView, STATUS_TEXT, when } from '../catalog-views';
import { GuardedButton } from '../components/guarded-button';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { useAction, useLoad } from '../use-load';
import { CancelDialog, FulfilDialog, ORDER_REASON, RefundDialog, unsentUnits, returnableLines } from './orders-actions';
import { OrderEvents } from './orders-events';

type Open = 'fulfil' | 'refund' | 'cancel' | undefined;

export function OrderPage({ org, navigate, appId, orderId }: PageProps & { readonly appId: string; readonly orderId: string }) {
  const path = appPath(org.orgId, appId, `orders/${encodeURIComponent(orderId)}`);
  const order = useLoad<OrderDetailView>(path);
  const events = useLoad<OrderEventsView>(`${path}/events`);
  const [open, setOpen] = useState<Open>();
  const [said, setSaid] = useState('');
  const deliver = useAction();
  const back = catalogHref(appId);
  const changed = (text: string) => {
    setOpen(undefined);
    setSaid(text);
    order.reload();
    events.reload();
  };
  const markDelivered = async (fulfillmentId: string) => {
    const answer = await deliver.run(() =>
      callApi<{ data: OrderDetailView }>(`${path}/fulfillments/${encodeURIComponent(fulfillmentId)}/deliver`, { method: 'POST' }),
    );
    if (answer) changed(`Fulfilment marked delivered. The order is now ${answer.data.status}.`);
  };
  return (
    <>
      <p>
        <a
          href={back}
          onClick={(e) => {
            e.preventDefault();
            navigate(back);
          }}
        >
          Back to the app’s catalog and orders
        </a>
      </p>
      <h2>Order {orderId}</h2>
      <p role="status">{said}</p>
      {deliver.error && <p role="alert">{deliver.error}</p>}
      <LoadView state={order.state}>
        {(o) => {
          const ship = o.acpOrder.fulfillments ?? [];
          const left = o.total - o.refunded;
          return (
            <div class="order-tables">
              <dl class="facts">
                <dt>Status</dt>
                <dd>{STATUS_TEXT[o.status] ?? o.status}</dd>
                <dt>Placed</dt>
                <dd>{when(o.createdAt)}</dd>
                <dt>Buyer</dt>
                <dd>{o.buyerEmail ?? 'No e-mail given'}</dd>
                <dt>Tax</dt>
                <dd>
                  {money(o.tax, o.currency)} ({o.taxRateBps / 100}%)
                </dd>
                <dt>Total charged</dt>
                <dd>{money(o.total, o.currency)}</dd>
                <dt>Refunded</dt>
                <dd>{money(o.refunded, o.currency)}</dd>
                <dt>Payment</dt>
                <dd>
                  <code>{o.paymentReference}</code>
                </dd>
                {o.orderNotes && (
                  <>
                    <dt>Buyer’s notes</dt>
                    <dd>{o.orderNotes}</dd>
                  </>
                )}
              </dl>
              <div class="order-actions">
                {o.status !== 'canceled' && unsentUnits(o).length > 0 && (
                  <GuardedButton org={org} permission="orders.manage" reason={ORDER_REASON} variant="primary" onClick={() => setOpen('fulfil')}>
                    Fulfil
                  </GuardedButton>
                )}
                {left > 0 && returnableLines(o).length > 0 && (
                  <GuardedButton org={org} permission="orders.manage" reason={ORDER_REASON} onClick={() => setOpen('refund')}>
                    Refund returned units
                  </GuardedButton>
                )}
                {o.status !== 'canceled' && (
                  <GuardedButton org={org} permission="orders.manage" reason={ORDER_REASON} variant="danger" onClick={() => setOpen('cancel')}>
                    Cancel the order
                  </GuardedButton>
                )}
              </div>
              <LinesTable o={o} />
              {ship.length > 0 && (
                <div class="table-scroll">
                  <table>
                    <caption>Fulfilments</caption>
                    <thead>
                      <tr>
                        <th scope="col">Sent</th>
                        <th scope="col">Units</th>
                        <th scope="col">Carrier and tracking</th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {ship.map((f, i) => (
                        <tr key={f.id}>
                          <th scope="row">
                            {i + 1}. {f.type === 'digital' ? 'Digital' : 'Shipping'}
                          </th>
                          <td>{f.line_items.reduce((n, u) => n + u.quantity, 0)}</td>
                          <td>{[f.carrier, f.tracking_number].filter(Boolean).join(' ') || '—'}</td>
                          <td>
                            {f.status}
                            {f.status === 'shipped' && (
                              <GuardedButton org={org} permission="orders.manage" reason={ORDER_REASON} busy={deliver.busy} onClick={() => markDelivered(f.id)}>
                                Mark delivered<span class="sr-only"> (fulfilment {i + 1})</span>
                              </GuardedButton>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <Adjustments o={o} />
              {open === 'fulfil' && <FulfilDialog path={path} order={o} onClose={() => setOpen(undefined)} onDone={changed} />}
              {open === 'refund' && <RefundDialog path={path} order={o} onClose={() => setOpen(undefined)} onDone={changed} />}
              {open === 'cancel' && <CancelDialog path={path} order={o} onClose={() => setOpen(undefined)} onDone={changed} />}
            </div>
          );
        }}
      </LoadView>
      <OrderEvents state={events.state} />
    </>
  );
}

function LinesTable({ o }: { readonly o: OrderDetailView }) {
  const progress = new Map((o.acpOrder.line_items ?? []).map((l) => [l.id, l.quantity]));
  return (
    <div class="table-scroll">
      <table>
        <caption>Lines</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Unit price</th>
            <th scope="col">Ordered</th>
            <th scope="col">Still on the order</th>
            <th scope="col">Sent</th>
            <th scope="col">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {o.lines.map((l) => {
            const q = progress.get(l.lineId);
            return (
              <tr key={l.lineId}>
                <th scope="row">{l.title}</th>
                <td>{money(l.unitAmount, o.currency)}</td>
                <td>{l.quantity}</td>
                <td>{q?.current ?? l.quantity}</td>
                <td>{q?.fulfilled ?? 0}</td>
                <td>{money(l.unitAmount * l.quantity, o.currency)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Adjustments({ o }: { readonly o: OrderDetailView }) {
  const list = o.acpOrder.adjustments ?? [];
  if (list.length === 0) return <p>No refunds or cancellations.</p>;
  const titles = new Map(o.lines.map((l) => [l.lineId, l.title]));
  return (
    <div class="table-scroll">
      <table>
        <caption>Refunds and cancellations</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Kind</th>
            <th scope="col">Units</th>
            <th scope="col">Amount</th>
            <th scope="col">State</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {list.map((a) => (
            <tr key={a.id}>
              <th scope="row">{when(a.occurred_at)}</th>
              <td>{a.type}</td>
              <td>{(a.line_items ?? []).map((u) => `${u.quantity} × ${titles.get(u.id) ?? u.id}`).join(', ') || '—'}</td>
              <td>{a.amount === undefined ? '—' : money(a.amount, o.currency)}</td>
              <td>{a.status}</td>
              <td>{a.description ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
