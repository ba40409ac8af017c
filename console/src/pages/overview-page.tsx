/**
 * The org at a glance: its plan and credits (roles with `plan.read`), the last 30 days of usage with a
 * chart by day, app or model, the keys that expire soon and the latest audit records (`audit.read`).
 */
import { can, orgPath, type PlanView } from '../api-client';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { utcTime } from '../sessions-views';
import { useLoad } from '../use-load';
import type { UsageDetail } from '../usage-views';
import { ExpiringKeys, RecentActivity } from './overview-sections';
import { useAppNames } from './usage-app-names';
import { UsageBreakdown } from './usage-breakdown';

const count = (n: number) => n.toLocaleString('en');

export function OverviewPage({ org, navigate }: PageProps) {
  const canSeePlan = can(org, 'plan.read');
  const plan = useLoad<PlanView>(canSeePlan ? orgPath(org.orgId, 'plan') : undefined).state;
  const usage = useLoad<UsageDetail>(orgPath(org.orgId, 'usage')).state;
  const { names } = useAppNames(org.orgId);
  return (
    <>
      <p>
        {org.name} <span class="muted">(your role: {org.role})</span>
      </p>
      <section aria-labelledby="plan-heading">
        <h2 id="plan-heading">Plan and credits</h2>
        <LoadView state={plan} refused={`Your role (${org.role}) cannot see the plan and credits; an owner or admin can.`}>
          {(p) => (
            <dl class="facts">
              <dt>Plan</dt>
              <dd>{p.plan}</dd>
              <dt>Credits</dt>
              <dd>{p.creditsUsd === null ? 'No prepaid credits: usage is billed afterwards' : `${p.creditsUsd} USD`}</dd>
            </dl>
          )}
        </LoadView>
      </section>
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage and cost, last 30 days</h2>
        <LoadView state={usage}>
          {(u) => (
            <>
              <dl class="facts">
                <dt>Calls</dt>
                <dd>{count(u.totals.calls)}</dd>
                <dt>Input tokens</dt>
                <dd>{count(u.totals.inputTokens)}</dd>
                <dt>Output tokens</dt>
                <dd>{count(u.totals.outputTokens)}</dd>
                <dt>Cost</dt>
                <dd>{u.totals.costUsd} USD</dd>
              </dl>
              <p class="muted">{u.asOf ? `Counted up to ${utcTime(u.asOf)}.` : 'Not counted yet: usage is totalled every 5 minutes.'}</p>
              <UsageBreakdown usage={u} appNames={names} />
            </>
          )}
        </LoadView>
      </section>
      <ExpiringKeys org={org} navigate={navigate} />
      <RecentActivity org={org} />
    </>
  );
}
