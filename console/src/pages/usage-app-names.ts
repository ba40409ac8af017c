/**
 * The org's apps by id, read once per page, to name the apps that usage and sessions list by id (one
 * request for the page, never one per row). Until it answers, or for a failed read, ids stand in.
 */
import { useMemo } from 'preact/hooks';
import { orgPath } from '../api-client';
import { useLoad } from '../use-load';

export interface AppSummary {
  readonly id: string;
  readonly name: string;
  readonly settings: Readonly<Record<string, unknown>>;
}

export function useAppNames(orgId: string): { readonly apps: readonly AppSummary[]; readonly names: ReadonlyMap<string, string> } {
  const { state } = useLoad<AppSummary[]>(orgPath(orgId, 'apps'));
  const apps = state?.kind === 'ready' ? state.value : NONE;
  return useMemo(() => ({ apps, names: new Map(apps.map((a) => [a.id, a.name])) }), [apps]);
}

const NONE: readonly AppSummary[] = [];
