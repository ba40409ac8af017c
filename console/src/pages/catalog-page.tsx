/**
 * The ACP catalog of the org's apps: pick an app, then its products, orders, ACP keys, policies and
 * tax, and order-event receiver; an order has its own page (`catalog/<appId>/orders/<orderId>`).
 */
import { orgPath } from '../api-client';
import { type AppView, catalogHref } from '../catalog-views';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { useLoad } from '../use-load';
import { CatalogKeys, CatalogPolicies } from './catalog-settings';
import { CatalogProducts } from './catalog-products';
import { CatalogReceiver } from './catalog-receiver';
import { OrderPage } from './orders-detail';
import { OrdersList } from './orders-list';

export function CatalogPage(props: PageProps) {
  const { org, rest, navigate } = props;
  const [appId, section, orderId, ...extra] = rest;
  const apps = useLoad<AppView[]>(orgPath(org.orgId, 'apps'));
  if (appId && section === 'orders' && orderId && extra.length === 0)
    return (
      <div class="catalog">
        <OrderPage key={`${appId}/${orderId}`} {...props} appId={appId} orderId={orderId} />
      </div>
    );
  const unknownPath = section !== undefined;
  return (
    <LoadView state={apps.state}>
      {(list) => {
        const app = list.find((a) => a.id === appId);
        return (
          <div class="catalog">
            <nav aria-labelledby="catalog-apps-heading" class="app-picker">
              <h2 id="catalog-apps-heading">Apps</h2>
              {list.length === 0 ? (
                <p>The org has no apps yet: create one on the Apps page, then publish its catalog here.</p>
              ) : (
                <ul>
                  {list.map((a) => (
                    <li key={a.id}>
                      <a
                        href={catalogHref(a.id)}
                        aria-current={a.id === appId ? 'page' : undefined}
                        onClick={(e) => {
                          e.preventDefault();
                          navigate(catalogHref(a.id));
                        }}
                      >
                        {a.name}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </nav>
            {!appId ? (
              list.length > 0 && <p>Choose an app to see its products, orders and checkout settings.</p>
            ) : unknownPath ? (
              <p role="alert">The console has no such page of the catalog. Choose an app above.</p>
            ) : !app ? (
              <p role="alert">The app is gone: it may have been deleted. Choose another app above.</p>
            ) : (
              <AppCatalog {...props} app={app} reloadApps={apps.reload} />
            )}
          </div>
        );
      }}
    </LoadView>
  );
}

function AppCatalog(props: PageProps & { readonly app: AppView; readonly reloadApps: () => void }) {
  const { org, app } = props;
  return (
    <div key={app.id}>
      <p class="muted">
        Publishing settings of <strong>{app.name}</strong> (app {app.id}).
      </p>
      <CatalogProducts org={org} appId={app.id} />
      <OrdersList org={org} appId={app.id} navigate={props.navigate} />
      <CatalogKeys org={org} appId={app.id} navigate={props.navigate} />
      <CatalogPolicies org={org} app={app} reloadApps={props.reloadApps} />
      <CatalogReceiver org={org} appId={app.id} />
    </div>
  );
}
