/** The order events of one order: how far the agent platform has been told, what waits, and every delivery attempt. */
import { type OrderEventsView, when } from '../catalog-views';
import { LoadView } from '../components/load-view';
import type { Load } from '../use-load';

const EVENT_TEXT: Record<string, string> = { order_create: 'Order created', order_update: 'Order changed' };

export function OrderEvents({ state }: { readonly state: Load<OrderEventsView> | undefined }) {
  return (
    <section aria-labelledby="order-events-heading">
      <h2 id="order-events-heading">Order events</h2>
      <LoadView state={state}>
        {(ev) => (
          <>
            <p>
              {ev.deliveredThrough === 0
                ? 'No event has reached the agent platform yet.'
                : `The agent platform has every event up to change ${ev.deliveredThrough}.`}{' '}
              {ev.pending.length === 0 ? 'None is waiting.' : `${ev.pending.length} waiting to be sent.`}
            </p>
            <div class="table-scroll">
              <table>
                <caption>Events of the order and their delivery</caption>
                <thead>
                  <tr>
                    <th scope="col">Change</th>
                    <th scope="col">Event</th>
                    <th scope="col">When</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {ev.pending.map((e) => (
                    <tr key={`p${e.revision}`}>
                      <th scope="row">{e.revision}</th>
                      <td>{EVENT_TEXT[e.type] ?? e.type}</td>
                      <td>{when(e.createdAt)}</td>
                      <td>Waiting to be sent</td>
                    </tr>
                  ))}
                  {ev.attempts.map((a) => (
                    <tr key={`a${a.revision}-${a.attempt}`}>
                      <th scope="row">{a.revision}</th>
                      <td>{EVENT_TEXT[a.type] ?? a.type}</td>
                      <td>{when(a.attemptedAt)}</td>
                      <td>
                        Attempt {a.attempt}: {a.outcome}
                        {a.httpStatus !== undefined && ` (HTTP ${a.httpStatus})`}
                        {a.error && ` — ${a.error}`}
                      </td>
                    </tr>
                  ))}
                  {ev.pending.length + ev.attempts.length === 0 && (
                    <tr>
                      <th scope="row">—</th>
                      <td colSpan={3}>No events recorded.</td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          </>
        )}
      </LoadView>
    </section>
  );
}
