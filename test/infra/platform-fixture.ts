/**
 * Builds the platform app the way bin/app.ts does, with cdk.json's feature flags, for the infra
 * tests. Bundling is skipped (`aws:cdk:bundling-stacks: []`) except where a test asks for it.
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
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
  readonly apiTemplate: Template;
}

export function synthPlatform(stage = 'prod', app: App = newTestApp()): SynthesizedPlatform {
  const stacks = addPlatformStacks(app, { config: stageConfig(stage), env: TEST_ENV });
  return {
    app,
    ...stacks,
    dataTemplate: Template.fromStack(stacks.data),
    apiTemplate: Template.fromStack(stacks.api),
  };
}

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;

/** Logical id -> resource, for one type. */
export function resourcesOfType(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
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
