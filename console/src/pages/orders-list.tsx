/** The app's orders, newest first, a page at a time; each links to its own page. */
import type { OrgMembership } from '../api-client';
import { appPath, catalogHref, money, type OrderView, when } from '../catalog-views';
import { LoadView } from '../components/load-view';
import { Pager, usePager } from '../components/pager';
import { useLoadPage } from '../use-load';

const PAGE_SIZE = 20;

interface Props {
  readonly org: OrgMembership;
  readonly appId: string;
  readonly navigate: (href: string) => void;
}

export function OrdersList({ org, appId, navigate }: Props) {
  const pager = usePager();
  const orders = useLoadPage<OrderView>(appPath(org.orgId, appId, 'orders'), { limit: PAGE_SIZE, cursor: pager.cursor });
  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders</h2>
      <LoadView state={orders.state}>
        {({ items, nextCursor }) =>
          items.length === 0 && pager.page === 1 ? (
            <p>No orders yet: they appear here when an agent completes a checkout.</p>
          ) : (
            <>
              <div class="table-scroll">
                <table>
                  <caption>Orders, newest first (page {pager.page})</caption>
                  <thead>
                    <tr>
                      <th scope="col">Placed</th>
                      <th scope="col">Items</th>
                      <th scope="col">Total</th>
                      <th scope="col">Refunded</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((o) => {
                      const href = catalogHref(appId, 'orders', o.id);
                      return (
                        <tr key={o.id}>
                          <th scope="row">
                            <a
                              href={href}
                              onClick={(e) => {
                                e.preventDefault();
                                navigate(href);
                              }}
                            >
                              {when(o.createdAt)}
                              <span class="sr-only"> order {o.id}</span>
                            </a>
                          </th>
                          <td>{o.lines.map((l) => `${l.quantity} × ${l.title}`).join(', ')}</td>
                          <td>{money(o.total, o.currency)}</td>
                          <td>{o.refunded ? money(o.refunded, o.currency) : '—'}</td>
                          <td>{o.status}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <Pager pager={pager} nextCursor={nextCursor} label="Orders" />
            </>
          )
        }
      </LoadView>
    </section>
  );
}
