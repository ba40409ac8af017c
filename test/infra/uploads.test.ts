/**
 * The upload path on AWS (docs/adr/0015, 0016): POST /api/v1/chat/files goes from the one front door to
 * the upload service (Fargate behind an internal load balancer, a CloudFront VPC origin), never through
 * API Gateway or Lambda, with the route's grants on the task role; scanned PDFs go to Textract, whose
 * completions reach the OCR worker through SNS and SQS, each with least privilege.
 */
import { describe, expect, it } from 'vitest';
import { functionDescription } from '../../lib/constructs/app-function';
import { Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { ENV } from '../../functions/kernel/env';
import { MAX_UPLOAD_BYTES } from '../../functions/conversations/domain/file';
import { ROUTES } from '../../functions/routes';
import { QUEUES } from '../../functions/workers';
import { privateLoadBalancerTarget } from '../../lib/constructs/api-firewall';
import { VIEWER_IP_HEADER } from '../../lib/front-door';
import { UPLOAD_SERVICE_HEALTH_PATH, UPLOAD_SERVICE_PORT } from '../../lib/upload-stack';
import { importedId, newTestApp, platformFunctions, resourcesOfType, synthPlatform, TEST_ENV } from './platform-fixture';

const platform = synthPlatform('prod');
const { templates, edge, data, dataTemplate, uploads, areas } = platform;
const uploadTemplate = templates.get(uploads!.stackName)!;
const edgeTemplate = templates.get(edge.stackName)!;
const uploadRoutes = ROUTES.filter((r) => r.origin === 'uploadService');

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: Record<string, unknown> };
const statementsOf = (template: typeof uploadTemplate, roleId: string): Statement[] =>
  Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties!.PolicyDocument.Statement as Statement[]);
const actionsOf = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat()).sort();

describe('the upload route', () => {
  it('is served by the upload service, with a 20 MiB file limit the transport can carry', () => {
    expect(uploadRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/chat/files']);
    expect(MAX_UPLOAD_BYTES).toBe(20 * 1024 * 1024);
  });

  it('has no API Gateway method and no Lambda function', () => {
    const chat = templates.get(areas.get('chat')!.stackName)!;
    const resources = Object.values(resourcesOfType(chat, 'AWS::ApiGateway::Resource')).map((r) => r.Properties!.PathPart);
    expect(resources).not.toContain('files');
    const handlers = Object.values(resourcesOfType(chat, 'AWS::Lambda::Function')).map((f) => f.Properties!.Description);
    expect(handlers).not.toContain('http/chat-files-create');
  });

  it('goes from the front door to the internal load balancer through a VPC origin, ahead of the chat API', () => {
    const config = Object.values(resourcesOfType(edgeTemplate, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig;
    const behaviors = config.CacheBehaviors as {
      PathPattern: string;
      TargetOriginId: string;
      AllowedMethods: string[];
      OriginRequestPolicyId: string;
      CachePolicyId: string;
    }[];
    const index = behaviors.findIndex((b) => b.PathPattern === '/api/v1/chat/files');
    expect(index).toBeGreaterThanOrEqual(0);
    expect(index).toBeLessThan(behaviors.findIndex((b) => b.PathPattern === '/api/v1/chat/*'));
    const behavior = behaviors[index]!;
    expect(behavior.AllowedMethods).toContain('POST');
    expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
    expect(behavior.OriginRequestPolicyId).toBe('216adef6-5c7f-47e4-b989-5492eafa07d3'); // Managed-AllViewer
    const origin = (config.Origins as { Id: string; VpcOriginConfig?: { VpcOriginId: unknown; OriginReadTimeout?: number } }[]).find(
      (o) => o.Id === behavior.TargetOriginId,
    )!;
    expect(origin.VpcOriginConfig).toBeDefined();
    const vpcOrigins = resourcesOfType(edgeTemplate, 'AWS::CloudFront::VpcOrigin');
    const [vpcOrigin] = Object.values(vpcOrigins);
    expect(vpcOrigin!.Properties!.VpcOriginEndpointConfig.OriginProtocolPolicy).toBe('http-only');
    expect(JSON.stringify(vpcOrigin!.Properties!.VpcOriginEndpointConfig.Arn)).toMatch(/Uploads.*Alb/);
    const [alb] = Object.values(resourcesOfType(uploadTemplate, 'AWS::ElasticLoadBalancingV2::LoadBalancer'));
    expect(alb!.Properties!.Scheme).toBe('internal');
  });

  it('admits only the VPC on the balancer, and only the balancer on the tasks', () => {
    uploadTemplate.hasResourceProperties('AWS::EC2::SecurityGroup', {
      GroupDescription: Match.stringLikeRegexp('load balancer'),
      SecurityGroupIngress: [Match.objectLike({ FromPort: 80, ToPort: 80, CidrIp: { 'Fn::GetAtt': [Match.anyValue(), 'CidrBlock'] } })],
    });
    uploadTemplate.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      FromPort: UPLOAD_SERVICE_PORT,
      ToPort: UPLOAD_SERVICE_PORT,
      SourceSecurityGroupId: Match.anyValue(),
    });
    expect(
      Object.values(resourcesOfType(uploadTemplate, 'AWS::EC2::SecurityGroup'))
        .flatMap((g) => (g.Properties!.SecurityGroupIngress ?? []) as { CidrIp?: string }[])
        .map((i) => i.CidrIp),
    ).not.toContain('0.0.0.0/0');
  });

  it('runs the same handler code on arm64 Fargate, health-checked, behind the front door', () => {
    const [task] = Object.values(resourcesOfType(uploadTemplate, 'AWS::ECS::TaskDefinition'));
    expect(task!.Properties!.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
    const container = task!.Properties!.ContainerDefinitions[0];
    const env = Object.fromEntries((container.Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
    expect(env[ENV.trustViewerAddress]).toBe('true');
    expect(env.PORT).toBe(String(UPLOAD_SERVICE_PORT));
    expect(env[ENV.ocrTopicArn]).toBeDefined();
    expect(env[ENV.ocrRoleArn]).toBeDefined();
    expect(container.ReadonlyRootFilesystem).toBe(true);
    uploadTemplate.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      HealthCheckPath: UPLOAD_SERVICE_HEALTH_PATH,
      Port: UPLOAD_SERVICE_PORT,
    });
    uploadTemplate.hasResourceProperties('AWS::ECS::Service', {
      DeploymentConfiguration: Match.objectLike({ DeploymentCircuitBreaker: { Enable: true, Rollback: true } }),
    });
  });

  it('gives the task role exactly the route grants: table, bucket objects, Textract start and passing the publishing role', () => {
    const [roleId] = Object.entries(resourcesOfType(uploadTemplate, 'AWS::IAM::Role')).find(
      ([, r]) => JSON.stringify(r.Properties!.AssumeRolePolicyDocument).includes('ecs-tasks.amazonaws.com') && !JSON.stringify(r).includes('ExecutionRole'),
    )!;
    const statements = statementsOf(uploadTemplate, roleId!);
    expect(actionsOf(statements)).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'iam:PassRole',
        's3:AbortMultipartUpload',
        's3:DeleteObject',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
        'textract:StartDocumentTextDetection',
      ].sort(),
    );
    const pass = statements.find((s) => s.Action === 'iam:PassRole')!;
    expect(pass.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'textract.amazonaws.com' } });
    expect(importedId(pass.Resource, dataTemplate)).toBe(data.getLogicalId(data.textractPublishRole.node.defaultChild as never));
  });
});

describe('the upload service in operation', () => {
  const albId = uploads!.getLogicalId(uploads!.loadBalancer.node.defaultChild as never);

  it('has the area WAF on its balancer: per-viewer rate rule, managed rules, and no rule that blocks a body over 8 KB', () => {
    uploadTemplate.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { ResourceArn: { Ref: albId } });
    const [acl] = Object.values(resourcesOfType(uploadTemplate, 'AWS::WAFv2::WebACL'));
    const rules = acl!.Properties!.Rules as { Name: string; Statement: any }[];
    expect(rules.map((r) => r.Name)).toEqual([
      'RateLimitPerIp',
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesKnownBadInputsRuleSet',
      'AWSManagedRulesCommonRuleSet',
    ]);
    expect(rules[0]!.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'FORWARDED_IP',
      ForwardedIPConfig: { HeaderName: VIEWER_IP_HEADER, FallbackBehavior: 'MATCH' },
    });
    const crs = rules.find((r) => r.Name === 'AWSManagedRulesCommonRuleSet')!.Statement.ManagedRuleGroupStatement;
    expect(crs.RuleActionOverrides).toContainEqual({ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } });
    // The 429 WAF answers itself takes the chat area's error shape.
    expect(JSON.parse(acl!.Properties!.CustomResponseBodies.rateLimited.Content)).toEqual({ error: 'Rate limit exceeded' });
  });

  it('refuses to trust the viewer address on a balancer the internet can reach', () => {
    const stack = new Stack(newTestApp(), 'Probe', { env: TEST_ENV });
    const vpc = new ec2.Vpc(stack, 'Vpc', { availabilityZones: ['eu-west-1a', 'eu-west-1b'], natGateways: 0 });
    const open = new elbv2.ApplicationLoadBalancer(stack, 'Open', { vpc, internetFacing: true });
    expect(() => privateLoadBalancerTarget(open, 'probe')).toThrow(/internal/);
    const internal = new elbv2.ApplicationLoadBalancer(stack, 'Internal', { vpc, internetFacing: false });
    expect(privateLoadBalancerTarget(internal, 'probe').onlyFrontDoorReaches).toBe(true);
  });

  it('alarms on 5xx (the tasks and the balancer) and on having no healthy task', () => {
    const alarms = Object.values(resourcesOfType(uploadTemplate, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties!);
    const errors = alarms.find((a) => JSON.stringify(a.Metrics ?? []).includes('HTTPCode_ELB_5XX_Count'))!;
    expect(JSON.stringify(errors.Metrics)).toContain('HTTPCode_Target_5XX_Count');
    expect(errors).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const healthy = alarms.find((a) => a.MetricName === 'HealthyHostCount')!;
    expect(healthy).toMatchObject({ Threshold: 1, ComparisonOperator: 'LessThanThreshold', EvaluationPeriods: 3, TreatMissingData: 'breaching' });
    for (const alarm of [errors, healthy]) expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('scales on CPU and memory from 2 tasks in prod (1 in dev)', () => {
    uploadTemplate.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 2, MaxCapacity: 6 });
    const metrics = Object.values(resourcesOfType(uploadTemplate, 'AWS::ApplicationAutoScaling::ScalingPolicy'))
      .map((p) => p.Properties!.TargetTrackingScalingPolicyConfiguration.PredefinedMetricSpecification.PredefinedMetricType)
      .sort();
    expect(metrics).toEqual(['ECSServiceAverageCPUUtilization', 'ECSServiceAverageMemoryUtilization']);
    const dev = synthPlatform('dev');
    dev.templates.get(dev.uploads!.stackName)!.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 1 });
  });
});

describe('the OCR pipeline', () => {
  it('lets only Textract, for this account, assume the publishing role, which may only publish to the OCR topic', () => {
    const roleId = data.getLogicalId(data.textractPublishRole.node.defaultChild as never);
    const role = dataTemplate.toJSON().Resources[roleId];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'textract.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      },
    ]);
    const statements = statementsOf(dataTemplate, roleId);
    expect(statements).toEqual([{ Action: 'sns:Publish', Effect: 'Allow', Resource: { Ref: data.getLogicalId(data.ocrTopic.node.defaultChild as never) } }]);
  });

  it('encrypts the topic, and delivers raw messages to the OCR queue, which accepts only that topic', () => {
    const topicId = data.getLogicalId(data.ocrTopic.node.defaultChild as never);
    dataTemplate.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    dataTemplate.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'sqs', RawMessageDelivery: true, TopicArn: { Ref: topicId } });
    const queueId = data.getLogicalId(data.ocrQueue.queue.node.defaultChild as never);
    const policies = Object.values(resourcesOfType(dataTemplate, 'AWS::SQS::QueuePolicy')).filter((p) =>
      JSON.stringify(p.Properties!.Queues).includes(queueId),
    );
    const allows = policies.flatMap((p) => p.Properties!.PolicyDocument.Statement as Statement[]).filter((s) => s.Effect === 'Allow');
    expect(allows).toEqual([
      expect.objectContaining({
        Action: 'sqs:SendMessage',
        Principal: { Service: 'sns.amazonaws.com' },
        Condition: { ArnEquals: { 'aws:SourceArn': { Ref: topicId } } },
      }),
    ]);
  });

  it('runs the OCR worker on that queue with Textract read access only', () => {
    const def = QUEUES.find((q) => q.id === 'ocr')!;
    expect(def.grants).toContain('ocr:read');
    expect(def.grants).not.toContain('ocr:start');
    const functions = platformFunctions(platform.apiTemplate);
    const [workerId] = Object.keys(functions).filter((id) => functions[id]!.Properties!.Description === functionDescription(def.handler));
    platform.apiTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: workerId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const roleId = (functions[workerId!]!.Properties!.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
    const statements = statementsOf(platform.apiTemplate, roleId);
    expect(actionsOf(statements).filter((a) => a.startsWith('textract:'))).toEqual(['textract:GetDocumentTextDetection']);
    expect(actionsOf(statements)).not.toContain('iam:PassRole');
  });
});
