/**
 * Builds the platform app the way bin/app.ts does, with cdk.json's feature flags, for the infra
 * tests. Bundling is skipped (`aws:cdk:bundling-stacks: []`) except where a test asks for it.
 */
import { readFileSync } from 'node:fs';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addPlatformStacks, type PlatformStacks } from '../../lib/platform';
import { stageConfig } from '../../lib/stage-config';

export const TEST_ENV = { account: '123456789012', region: 'eu-west-1' } as const;

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  context: Record<string, unknown>;
};

export function newTestApp(options: { bundle?: boolean } = {}): App {
  return new App({
    context: { ...cdkJson.context, ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
}

export interface SynthesizedPlatform extends PlatformStacks {
  readonly app: App;
  readonly dataTemplate: Template;
  /**
   * Every stack but the data stack, merged into one template: logical ids are prefixed with their
   * stack's name (and every Ref, GetAtt and DependsOn rewritten to match), so assertions that follow
   * references across functions, roles and methods read the whole deployed shape at once.
   */
  readonly apiTemplate: Template;
  /** Each stack's own template, by stack name. */
  readonly templates: ReadonlyMap<string, Template>;
}

const shared = new Map<string, SynthesizedPlatform>();

/**
 * The platform of `stage`, synthesized once per process when no app is given: the infra files, and
 * the bundle files, share a module graph per worker (vitest.config.ts) and only read what it holds,
 * so each synthesis (the costliest step of those files) is done once. A test that adds to the app
 * passes its own.
 */
export function synthPlatform(stage = 'prod', app?: App): SynthesizedPlatform {
  if (app) return synthesize(stage, app);
  let platform = shared.get(stage);
  if (!platform) {
    platform = synthesize(stage, newTestApp());
    shared.set(stage, platform);
  }
  return platform;
}

function synthesize(stage: string, app: App): SynthesizedPlatform {
  const stacks = addPlatformStacks(app, { config: stageConfig(stage), env: TEST_ENV });
  const all: Stack[] = [stacks.data, ...stacks.areas.values(), stacks.workers, ...(stacks.uploads ? [stacks.uploads] : []), stacks.edge];
  const templates = new Map(all.map((st) => [st.stackName, Template.fromStack(st)]));
  return {
    app,
    ...stacks,
    dataTemplate: templates.get(stacks.data.stackName)!,
    apiTemplate: mergeTemplates(all.filter((st) => st !== stacks.data).map((st) => [st.stackName, templates.get(st.stackName)!] as const)),
    templates,
  };
}

function mergeTemplates(parts: readonly (readonly [string, Template])[]): Template {
  const resources: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  for (const [name, template] of parts) {
    const json = template.toJSON() as { Resources: Record<string, Record<string, unknown>>; Outputs?: Record<string, unknown> };
    const ids = new Set(Object.keys(json.Resources));
    const prefix = name.replace(/[^A-Za-z0-9]/g, '');
    const rename = (id: string) => (ids.has(id) ? `${prefix}${id}` : id);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      const obj = value as Record<string, unknown>;
      if (typeof obj.Ref === 'string' && Object.keys(obj).length === 1) return { Ref: rename(obj.Ref) };
      if (Array.isArray(obj['Fn::GetAtt']) && Object.keys(obj).length === 1) {
        const [id, ...rest] = obj['Fn::GetAtt'] as string[];
        return { 'Fn::GetAtt': [rename(id!), ...rest] };
      }
      return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, k === 'DependsOn' ? [v].flat().map((d) => rename(d as string)) : rewrite(v)]));
    };
    for (const [id, resource] of Object.entries(json.Resources)) resources[rename(id)] = rewrite(resource);
    for (const [id, output] of Object.entries(json.Outputs ?? {})) outputs[`${prefix}${id}`] = rewrite(output);
  }
  return Template.fromJSON({ Resources: resources, Outputs: outputs });
}

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;

/** Logical id -> resource, for one type. */
export function resourcesOfType(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/**
 * The platform's own functions (AppFunction: `http/…`, `authorizers/…`, `queue/…`, `jobs/…`), without
 * the handlers CDK adds for its custom resources (the API reference bucket's deployment and clean-up).
 */
export function platformFunctions(template: Template): Resources {
  return Object.fromEntries(
    Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).filter(([, f]) =>
      /^(http|authorizers|workers)\//.test(String(f.Properties?.Description ?? '')),
    ),
  ) as Resources;
}

/** API Gateway resource logical id -> full path ("/admin/v1/orgs/{orgId}"). */
export function resourcePaths(template: Template): Map<string, string> {
  const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const props = resources[id]?.Properties;
    if (!props) throw new Error(`No API Gateway resource ${id}`);
    const parent = props.ParentId as { Ref?: string };
    const path = `${parent.Ref ? pathOf(parent.Ref) : ''}/${props.PathPart as string}`;
    paths.set(id, path);
    return path;
  };
  for (const id of Object.keys(resources)) pathOf(id);
  return paths;
}

/** The logical id a `{ Ref }` or `{ Fn::GetAtt: [id, attr] }` points at. */
export function refId(value: unknown): string | undefined {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] } | undefined;
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
}

/**
 * Resolves a value of the API stack that may be a cross-stack import to the logical id it names in
 * the data stack, through the data stack's exports.
 */
export function importedId(value: unknown, dataTemplate: Template): string | undefined {
  const imported = (value as { 'Fn::ImportValue'?: string } | undefined)?.['Fn::ImportValue'];
  if (!imported) return refId(value);
  const outputs = dataTemplate.toJSON().Outputs as Record<string, { Value: unknown; Export?: { Name: string } }>;
  const output = Object.values(outputs).find((o) => o.Export?.Name === imported);
  return refId(output?.Value);
}
