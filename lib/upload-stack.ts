/**
 * The upload service (docs/adr/0016): the routes whose `origin` is `uploadService` (POST
 * /api/v1/chat/files, 20 MiB bodies) run in a container, because API Gateway carries 10 MB and Lambda
 * 6 MB. The container runs the same handler and kit as the Lambdas (functions/server/upload-service-main.ts)
 * on ECS Fargate behind an internal Application Load Balancer, which only the CloudFront front door
 * reaches, through a VPC origin; nothing here is internet-facing. The balancer has the same regional
 * WAF as the area APIs (per-viewer rate rule, managed rules, body rules counting), and the service
 * its own alarms and dashboard.
 */
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, Fn, RemovalPolicy, Validations, type StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RouteDef } from '../functions/kernel/route-vocabulary';
import { ApiFirewall, privateLoadBalancerTarget } from './constructs/api-firewall';
import { functionContextOf } from './constructs/function-context';
import { GrantPolicy, baseEnvironment } from './constructs/grants';
import { Monitoring } from './constructs/monitoring';
import { DataUserStack, type DataStack } from './data-stack';
import { VIEWER_IP_HEADER } from './front-door';
import type { StageConfig } from './stage-config';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The container's port and health path (functions/server/upload-service-main.ts). */
export const UPLOAD_SERVICE_PORT = 8080;
export const UPLOAD_SERVICE_HEALTH_PATH = '/healthz';

/** What the image build may read: the lockfile, the manifest and the function sources. Nothing else is hashed. */
const IMAGE_EXCLUDES = ['**', '!package.json', '!package-lock.json', '!tsconfig.json', '!functions/**', '!docker/upload-service/**'];

export interface UploadStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  /** The routes with `origin: 'uploadService'`. */
  readonly routes: readonly RouteDef[];
}

export class UploadStack extends DataUserStack {
  public readonly vpc: ec2.Vpc;
  public readonly loadBalancer: elbv2.ApplicationLoadBalancer;
  public readonly service: ecs.FargateService;
  public readonly taskRole: iam.Role;
  public readonly targetGroup: elbv2.ApplicationTargetGroup;
  public readonly firewall: ApiFirewall;
  public readonly monitoring: Monitoring;
  public readonly routes: readonly RouteDef[];

  /**
   * The region's first two zones, resolved by CloudFormation at deploy time (`Fn::GetAZs`): synth stays
   * offline (a context lookup needs credentials) and no zone name is hardcoded.
   */
  override get availabilityZones(): string[] {
    return [Fn.select(0, Fn.getAzs()), Fn.select(1, Fn.getAzs())];
  }

  constructor(scope: Construct, id: string, props: UploadStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    this.routes = props.routes;
    // WAF's own answers (429) take the error shape of the routes' area.
    const [area, ...others] = new Set(props.routes.map((r) => r.area));
    if (!area || others.length) throw new Error('the upload service serves the routes of exactly one area');
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    // Two AZs; one NAT gateway for ECR, CloudWatch Logs, Textract and the other AWS APIs; S3 and
    // DynamoDB, which carry the bytes, through free gateway endpoints (docs/adr/0016 has the costs).
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      availabilityZones: this.availabilityZones,
      natGateways: 1,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'private', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        S3: { service: ec2.GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB },
      },
    });
    const flowLogs = new logs.LogGroup(this, 'FlowLogs', { retention: config.logRetention, removalPolicy });
    this.vpc.addFlowLog('FlowLog', { destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogs), trafficType: ec2.FlowLogTrafficType.REJECT });

    const cluster = new ecs.Cluster(this, 'Cluster', { vpc: this.vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });

    // The task role holds exactly the grants of the routes it serves, translated like a Lambda's.
    this.taskRole = new iam.Role(this, 'TaskRole', { assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com') });
    const context = functionContextOf(config, data, { trustViewerAddress: true });
    const environment: Record<string, string> = {
      ...baseEnvironment(context),
      PORT: String(UPLOAD_SERVICE_PORT),
      NODE_OPTIONS: '--enable-source-maps',
      AWS_REGION: this.region,
    };
    const grants = new GrantPolicy(this.taskRole, context, (name, value) => (environment[name] = value));
    for (const grant of new Set(props.routes.flatMap((r) => r.grants))) grants.grant(grant);

    const logGroup = new logs.LogGroup(this, 'Logs', { retention: config.logRetention, removalPolicy });
    const task = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: 1024,
      // A 20 MiB upload is held once while it is verified, plus the PDF parser's working set.
      memoryLimitMiB: 2048,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
      taskRole: this.taskRole,
    });
    task.addContainer('UploadService', {
      image: ecs.ContainerImage.fromAsset(REPO_ROOT, { file: 'docker/upload-service/Dockerfile', platform: Platform.LINUX_ARM64, exclude: IMAGE_EXCLUDES }),
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: 'upload' }),
      environment,
      portMappings: [{ containerPort: UPLOAD_SERVICE_PORT }],
      readonlyRootFilesystem: true,
      stopTimeout: Duration.seconds(60),
      healthCheck: {
        command: [
          'CMD',
          'node',
          '-e',
          `fetch('http://127.0.0.1:${UPLOAD_SERVICE_PORT}${UPLOAD_SERVICE_HEALTH_PATH}').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`,
        ],
        interval: Duration.seconds(15),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(20),
      },
    });

    const albSecurityGroup = new ec2.SecurityGroup(this, 'AlbSecurityGroup', {
      vpc: this.vpc,
      description: 'Upload service load balancer: HTTP from the CloudFront VPC origin inside the VPC',
      allowAllOutbound: false,
    });
    // The VPC origin's network interfaces sit in this VPC: nothing outside it can reach the internal balancer.
    albSecurityGroup.addIngressRule(ec2.Peer.ipv4(this.vpc.vpcCidrBlock), ec2.Port.tcp(80), 'CloudFront VPC origin');
    this.loadBalancer = new elbv2.ApplicationLoadBalancer(this, 'Alb', {
      vpc: this.vpc,
      internetFacing: false,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
      securityGroup: albSecurityGroup,
      dropInvalidHeaderFields: true,
      // Longer than CloudFront's 60 s origin read timeout: the balancer never cuts an upload first.
      idleTimeout: Duration.seconds(120),
    });
    this.loadBalancer.logAccessLogs(data.accessLogsBucket, 'upload-alb');

    const serviceSecurityGroup = new ec2.SecurityGroup(this, 'ServiceSecurityGroup', {
      vpc: this.vpc,
      description: 'Upload service tasks: the container port from the load balancer only',
    });
    serviceSecurityGroup.addIngressRule(albSecurityGroup, ec2.Port.tcp(UPLOAD_SERVICE_PORT), 'load balancer');
    albSecurityGroup.addEgressRule(serviceSecurityGroup, ec2.Port.tcp(UPLOAD_SERVICE_PORT), 'to the upload tasks');

    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: task,
      desiredCount: config.retainData ? 2 : 1,
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { rollback: true },
      securityGroups: [serviceSecurityGroup],
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
      assignPublicIp: false,
    });
    const scaling = this.service.autoScaleTaskCount({ minCapacity: config.retainData ? 2 : 1, maxCapacity: 6 });
    scaling.scaleOnCpuUtilization('Cpu', { targetUtilizationPercent: 60 });
    // Uploads in flight are held in memory (up to 20 MiB each, plus parsing): memory can run out first.
    scaling.scaleOnMemoryUtilization('Memory', { targetUtilizationPercent: 70 });

    const listener = this.loadBalancer.addListener('Http', { port: 80, protocol: elbv2.ApplicationProtocol.HTTP, open: false });
    this.targetGroup = listener.addTargets('Upload', {
      port: UPLOAD_SERVICE_PORT,
      protocol: elbv2.ApplicationProtocol.HTTP,
      targets: [this.service],
      healthCheck: { path: UPLOAD_SERVICE_HEALTH_PATH, healthyHttpCodes: '200', interval: Duration.seconds(15) },
      deregistrationDelay: Duration.seconds(60),
    });

    // The upload path's outer guard (docs/design.md §5), as on every area API: only the front door reaches
    // the balancer, so the rate rule counts by the viewer address the front door writes.
    this.firewall = new ApiFirewall(this, 'Firewall', {
      target: privateLoadBalancerTarget(this.loadBalancer, `platform-${config.stage}-uploads`),
      requestsPerIpPer5Min: config.wafRequestsPerIpPer5Min,
      logRetention: config.logRetention,
      retainLogs: config.retainData,
      area,
      clientIpHeader: VIEWER_IP_HEADER,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      name: 'uploads',
      functions: [],
      services: [{ name: 'upload-service', resource: { loadBalancer: this.loadBalancer, targetGroup: this.targetGroup, service: this.service } }],
    });

    Validations.of(task).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason: 'The variables are configuration (table, bucket and queue names, topic and role ARNs, limits): no secret is passed in the environment.',
    });
    Validations.of(task.obtainExecutionRole()).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The execution role pulls the image: ecr:GetAuthorizationToken supports no resource-level permissions (the repository actions are scoped to the asset repository).',
    });
    Validations.of(albSecurityGroup).acknowledge({
      id: 'AwsSolutions-EC23',
      reason: 'The internal balancer admits the VPC CIDR on port 80 only: the CloudFront VPC origin reaches it from inside the VPC and nothing else can.',
    });
    new CfnOutput(this, 'LoadBalancerArn', {
      value: this.loadBalancer.loadBalancerArn,
      description: 'The internal balancer of the upload service (a CloudFront VPC origin)',
    });
  }
}
