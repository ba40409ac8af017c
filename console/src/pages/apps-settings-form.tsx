/**
 * The app's name and settings other than its MCP connections: model, image input and its limit, Zero
 * Data Retention, the monthly usage cap, the ACP policy links and tax. Empty text means "none".
 */
import { useState } from 'preact/hooks';
import type { AppView } from '../apps-views';
import { Field } from '../components/field';
import { useAction } from '../use-load';

interface Props {
  readonly app: AppView;
  /** Set when the role may only read: every control is disabled and described by this reason. */
  readonly readOnlyReasonId: string | undefined;
  readonly save: (body: unknown) => Promise<unknown>;
  readonly onSaved: () => void;
}

const CAP = /^\d{1,9}(\.\d{1,12})?$/;

/** Percent with up to two decimals, as the basis points the API takes. */
const bpsOf = (percent: string): number | undefined => {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(percent.trim())) return undefined;
  const bps = Math.round(Number(percent) * 100);
  return bps <= 10_000 ? bps : undefined;
};

export function AppSettingsForm({ app, readOnlyReasonId, save, onSaved }: Props) {
  const s = app.settings;
  const [name, setName] = useState(app.name);
  const [model, setModel] = useState(s.model);
  const [zdr, setZdr] = useState(s.zeroDataRetention);
  const [images, setImages] = useState(s.imageInput.enabled);
  const [imageLimit, setImageLimit] = useState(String(s.imageInput.maxPerConversation));
  const [cap, setCap] = useState(s.monthlyUsageCapUsd ?? '');
  const [terms, setTerms] = useState(s.acp.termsOfUseUrl ?? '');
  const [privacy, setPrivacy] = useState(s.acp.privacyPolicyUrl ?? '');
  const [returns, setReturns] = useState(s.acp.returnPolicyUrl ?? '');
  const [tax, setTax] = useState(String(s.acp.taxRateBps / 100));
  const [invalid, setInvalid] = useState('');
  const action = useAction();
  const [said, setSaid] = useState('');

  const submit = async () => {
    setSaid('');
    const limit = Number(imageLimit);
    const bps = bpsOf(tax);
    const problem =
      (!Number.isInteger(limit) || limit < 0 || limit > 1000 ? 'The image limit is a whole number from 0 to 1000.' : '') ||
      (cap.trim() && !CAP.test(cap.trim()) ? 'The monthly cap is an amount in USD such as 250 or 99.50, or empty for none.' : '') ||
      (bps === undefined ? 'The tax rate is a percentage from 0 to 100 with at most two decimals, such as 8.25.' : '');
    setInvalid(problem);
    if (problem) return;
    const orNull = (text: string) => text.trim() || null;
    const body = {
      name: name.trim(),
      settings: {
        model: model.trim(),
        zeroDataRetention: zdr,
        imageInput: { enabled: images, maxPerConversation: limit },
        monthlyUsageCapUsd: orNull(cap),
        acp: { termsOfUseUrl: orNull(terms), privacyPolicyUrl: orNull(privacy), returnPolicyUrl: orNull(returns), taxRateBps: bps },
      },
    };
    if ((await action.run(() => save(body).then(() => true))) === true) {
      setSaid('Settings saved.');
      onSaved();
    }
  };

  return (
    <form
      aria-labelledby="settings-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 id="settings-heading">Settings</h3>
      <fieldset class="plain-group" disabled={readOnlyReasonId !== undefined} aria-describedby={readOnlyReasonId}>
        <Field label="Name">{({ id }) => <input id={id} value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <Field label="Model" hint="offline (the built-in model for trying things out), bedrock:<model id> or openai:<model>.">
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              value={model}
              required
              maxLength={200}
              spellcheck={false}
              onInput={(e) => setModel(e.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={zdr} onChange={(e) => setZdr(e.currentTarget.checked)} />
          Zero Data Retention: messages are never stored, and the export shows none
        </label>
        <fieldset>
          <legend>Image input</legend>
          <label class="check">
            <input type="checkbox" checked={images} onChange={(e) => setImages(e.currentTarget.checked)} />
            Accept images in chat turns
          </label>
          <Field label="Images per conversation, at most" hint="0 to 1000; a turn over the limit is refused with IMAGE_LIMIT_REACHED.">
            {({ id, describedBy }) => (
              <input
                id={id}
                aria-describedby={describedBy}
                type="number"
                min={0}
                max={1000}
                step={1}
                value={imageLimit}
                onInput={(e) => setImageLimit(e.currentTarget.value)}
              />
            )}
          </Field>
        </fieldset>
        <Field label="Monthly usage cap (USD)" hint="Month-to-date spending limit of this app, e.g. 250. Empty: no cap.">
          {({ id, describedBy }) => (
            <input id={id} aria-describedby={describedBy} inputMode="decimal" value={cap} onInput={(e) => setCap(e.currentTarget.value)} />
          )}
        </Field>
        <fieldset>
          <legend>ACP checkout: policy links and tax</legend>
          <p class="muted">Shown to the buyer's agent on every checkout session. Empty: no link.</p>
          <Field label="Terms of use URL">
            {({ id }) => <input id={id} type="url" placeholder="https://" value={terms} onInput={(e) => setTerms(e.currentTarget.value)} />}
          </Field>
          <Field label="Privacy policy URL">
            {({ id }) => <input id={id} type="url" placeholder="https://" value={privacy} onInput={(e) => setPrivacy(e.currentTarget.value)} />}
          </Field>
          <Field label="Return policy URL">
            {({ id }) => <input id={id} type="url" placeholder="https://" value={returns} onInput={(e) => setReturns(e.currentTarget.value)} />}
          </Field>
          <Field label="Tax rate (%)" hint="Added on top of prices, e.g. 8.25. 0 for none.">
            {({ id, describedBy }) => (
              <input id={id} aria-describedby={describedBy} inputMode="decimal" value={tax} onInput={(e) => setTax(e.currentTarget.value)} />
            )}
          </Field>
        </fieldset>
        {(invalid || action.error) && <p role="alert">{invalid || action.error}</p>}
        <p role="status">{said}</p>
        <div class="actions start">
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
