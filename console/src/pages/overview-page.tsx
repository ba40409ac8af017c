/** The org at a glance: its plan and credits (roles with `plan.read`) and the last 30 days of usage. */
import { orgPath, type PlanView, type UsageView } from '../api-client';
import type { PageProps } from '../pages';
import { useLoad } from '../use-load';

const count = (n: number) => n.toLocaleString('en');

export function OverviewPage({ org }: PageProps) {
  const canSeePlan = org.permissions.includes('plan.read');
  const plan = useLoad<PlanView>(canSeePlan ? orgPath(org.orgId, 'plan') : undefined).state;
  const usage = useLoad<UsageView>(orgPath(org.orgId, 'usage')).state;
  return (
    <>
      <p>
        {org.name} <span class="muted">(your role: {org.role})</span>
      </p>
      <section aria-labelledby="plan-heading">
        <h2 id="plan-heading">Plan and credits</h2>
        {!plan ? (
          <p>Your role ({org.role}) cannot see the plan and credits; an owner or admin can.</p>
        ) : plan.kind === 'loading' ? (
          <p role="status">Loading…</p>
        ) : plan.kind === 'failed' ? (
          <p role="alert">{plan.message}</p>
        ) : (
          <dl class="facts">
            <dt>Plan</dt>
            <dd>{plan.value.plan}</dd>
            <dt>Credits</dt>
            <dd>{plan.value.creditsUsd === null ? 'No prepaid credits: usage is billed afterwards' : `${plan.value.creditsUsd} USD`}</dd>
          </dl>
        )}
      </section>
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage and cost, last 30 days</h2>
        {!usage || usage.kind === 'loading' ? (
          <p role="status">Loading…</p>
        ) : usage.kind === 'failed' ? (
          <p role="alert">{usage.message}</p>
        ) : (
          <UsageSummary usage={usage.value} />
        )}
      </section>
    </>
  );
}

function UsageSummary({ usage }: { readonly usage: UsageView }) {
  const { totals } = usage;
  return (
    <>
      <dl class="facts">
        <dt>Calls</dt>
        <dd>{count(totals.calls)}</dd>
        <dt>Input tokens</dt>
        <dd>{count(totals.inputTokens)}</dd>
        <dt>Output tokens</dt>
        <dd>{count(totals.outputTokens)}</dd>
        <dt>Cost</dt>
        <dd>{totals.costUsd} USD</dd>
      </dl>
      <p class="muted">{usage.asOf ? `Counted up to ${usage.asOf}.` : 'Not counted yet: usage is totalled every 5 minutes.'}</p>
      <div class="table-scroll">
        <table>
          <caption>
            Usage per day, {usage.from} to {usage.to}
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Calls</th>
              <th scope="col">Input tokens</th>
              <th scope="col">Output tokens</th>
              <th scope="col">Cost (USD)</th>
            </tr>
          </thead>
          <tbody>
            {usage.days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                <td>{count(d.totals.calls)}</td>
                <td>{count(d.totals.inputTokens)}</td>
                <td>{count(d.totals.outputTokens)}</td>
                <td>{d.totals.costUsd}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
