/** An app's products: the table, adding one, changing one (price, stock, text) and taking it off sale or back. */
import { useState } from 'preact/hooks';
import { callApi, type OrgMembership } from '../api-client';
import { appPath, fromMinor, money, type ProductView, toMinor } from '../catalog-views';
import { Dialog } from '../components/dialog';
import { Field } from '../components/field';
import { GuardedButton } from '../components/guarded-button';
import { LoadView } from '../components/load-view';
import { useAction, useLoad } from '../use-load';

const REASON = 'Only owners, admins and developers change the catalog';

interface Props {
  readonly org: OrgMembership;
  readonly appId: string;
}

export function CatalogProducts({ org, appId }: Props) {
  const products = useLoad<ProductView[]>(appPath(org.orgId, appId, 'products'));
  const [editing, setEditing] = useState<ProductView | 'new' | undefined>();
  const [said, setSaid] = useState('');
  const toggle = useAction();
  const done = (text: string) => {
    setSaid(text);
    products.reload();
  };
  const setActive = async (p: ProductView, active: boolean) => {
    const answer = await toggle.run(() => callApi(appPath(org.orgId, appId, `products/${p.id}`), { method: 'PATCH', body: { active } }));
    if (answer) done(active ? `${p.title} is on sale again.` : `${p.title} is off sale: agents no longer see it.`);
  };
  return (
    <section aria-labelledby="products-heading">
      <h2 id="products-heading">Products</h2>
      <GuardedButton org={org} permission="catalog.manage" reason={REASON} variant="primary" onClick={() => setEditing('new')}>
        Add a product
      </GuardedButton>
      <p role="status">{said}</p>
      {toggle.error && <p role="alert">{toggle.error}</p>}
      <LoadView state={products.state}>
        {(list) =>
          list.length === 0 ? (
            <p>No products yet: agents see an empty catalog.</p>
          ) : (
            <div class="table-scroll">
              <table>
                <caption>Products of the app, as agents see them when on sale</caption>
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col">Price</th>
                    <th scope="col">Stock</th>
                    <th scope="col">On sale</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((p) => (
                    <tr key={p.id}>
                      <th scope="row">
                        {p.title}
                        {p.description && <div class="muted product-note">{p.description}</div>}
                      </th>
                      <td>{money(p.price, p.currency)}</td>
                      <td>{p.inventory === null ? 'Unlimited' : p.inventory.toLocaleString('en')}</td>
                      <td>{p.active ? 'Yes' : 'No'}</td>
                      <td class="row-actions">
                        <GuardedButton org={org} permission="catalog.manage" reason={REASON} onClick={() => setEditing(p)}>
                          Edit<span class="sr-only"> {p.title}</span>
                        </GuardedButton>
                        <GuardedButton org={org} permission="catalog.manage" reason={REASON} busy={toggle.busy} onClick={() => setActive(p, !p.active)}>
                          {p.active ? 'Take off sale' : 'Put on sale'}
                          <span class="sr-only"> {p.title}</span>
                        </GuardedButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadView>
      {editing && (
        <ProductDialog
          org={org}
          appId={appId}
          product={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={(text) => {
            setEditing(undefined);
            done(text);
          }}
        />
      )}
    </section>
  );
}

interface DialogProps extends Props {
  readonly product: ProductView | undefined;
  readonly onClose: () => void;
  readonly onSaved: (said: string) => void;
}

function ProductDialog({ org, appId, product, onClose, onSaved }: DialogProps) {
  const [title, setTitle] = useState(product?.title ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [currency, setCurrency] = useState(product?.currency.toUpperCase() ?? 'USD');
  const [price, setPrice] = useState(product ? fromMinor(product.price, product.currency) : '');
  const [stock, setStock] = useState(product?.inventory === null || !product ? '' : String(product.inventory));
  const [problem, setProblem] = useState('');
  const save = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const minor = toMinor(price, currency);
    if (minor === undefined) return setProblem(`The price must be an amount in ${currency.toUpperCase()}, such as 18.00.`);
    if (stock.trim() !== '' && !/^\d+$/.test(stock.trim())) return setProblem('The stock must be a whole number of units, or empty for no limit.');
    setProblem('');
    const body = { title, description, price: minor, currency: currency.trim().toLowerCase(), inventory: stock.trim() === '' ? null : Number(stock) };
    const path = appPath(org.orgId, appId, product ? `products/${product.id}` : 'products');
    const answer = await save.run(() => callApi<{ data: ProductView }>(path, { method: product ? 'PATCH' : 'POST', body }));
    if (answer)
      onSaved(
        product ? `${answer.data.title} is changed.` : `${answer.data.title} is added to the catalog at ${money(answer.data.price, answer.data.currency)}.`,
      );
  };
  return (
    <Dialog title={product ? `Edit ${product.title}` : 'Add a product'} onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Title">{({ id }) => <input id={id} required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}</Field>
        <Field label="Description" hint="Optional; agents show it to the buyer.">
          {({ id, describedBy }) => (
            <textarea id={id} aria-describedby={describedBy} maxLength={5000} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          )}
        </Field>
        <div class="field-row">
          <Field label="Price" hint="Of one unit, in the currency, e.g. 18.00.">
            {({ id, describedBy }) => (
              <input id={id} aria-describedby={describedBy} required inputMode="decimal" value={price} onInput={(e) => setPrice(e.currentTarget.value)} />
            )}
          </Field>
          <Field label="Currency" hint="ISO 4217 code, e.g. USD.">
            {({ id, describedBy }) => (
              <input
                id={id}
                aria-describedby={describedBy}
                required
                pattern="[A-Za-z]{3}"
                maxLength={3}
                value={currency}
                onInput={(e) => setCurrency(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Stock" hint="Units left; empty for no limit.">
            {({ id, describedBy }) => (
              <input id={id} aria-describedby={describedBy} inputMode="numeric" value={stock} onInput={(e) => setStock(e.currentTarget.value)} />
            )}
          </Field>
        </div>
        {(problem || save.error) && <p role="alert">{problem || save.error}</p>}
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={save.busy}>
            {save.busy ? 'Saving…' : product ? 'Save changes' : 'Add product'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
