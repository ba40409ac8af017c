/**
 * One API area (docs/adr/0013): its REST API, functions, key authorizers, usage plans and gateway
 * answers, the WAF in front of its stage, and the alarms and dashboard of its functions. Holds no data;
 * the data lives in DataStack. A new area of the route table becomes a new stack, so no stack nears
 * CloudFormation's 500-resource limit as the platform grows.
 */
import { CfnOutput, SecretValue, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { bodyTooLargeMessage } from '../functions/kernel/domain/body-limits';
import type { Area, RouteDef } from '../functions/kernel/route-vocabulary';
import { ApiFirewall, stageTarget } from './constructs/api-firewall';
import { functionContextOf, type FunctionContext } from './constructs/function-context';
import { AreaApi } from './constructs/area-api';
import { Monitoring } from './constructs/monitoring';
import { DataUserStack, type DataStack } from './data-stack';
import { ORIGIN_VERIFY_HEADER, VIEWER_IP_HEADER } from './front-door';
import type { StageConfig } from './stage-config';

export interface AreaStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly area: Area;
  readonly routes: readonly RouteDef[];
  /** Served through the CloudFront front door only (every spec area; not the admin API). */
  readonly behindFrontDoor: boolean;
  /** What the admin key routes manage (usage plans and authorizer stages of the other areas). */
  readonly gateway?: FunctionContext['gateway'];
}

export class AreaStack extends DataUserStack {
  public readonly area: Area;
  public readonly http: AreaApi;
  public readonly firewall: ApiFirewall;
  public readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: AreaStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    this.area = props.area;
    const context = functionContextOf(config, data, { trustViewerAddress: props.behindFrontDoor, ...(props.gateway ? { gateway: props.gateway } : {}) });
    this.http = new AreaApi(this, 'Http', { context, area: props.area, routes: props.routes });
    // The largest body a route of this area takes: above it no function can answer but with a 413.
    const bodyLimits = props.routes.flatMap((r) => (r.maxBodyBytes !== undefined ? [r.maxBodyBytes] : []));
    const maxBodyBytes = bodyLimits.length ? Math.max(...bodyLimits) : undefined;
    this.firewall = new ApiFirewall(this, 'Firewall', {
      target: stageTarget(this.http.api.deploymentStage),
      ...(maxBodyBytes !== undefined ? { maxBody: { bytes: maxBodyBytes, message: bodyTooLargeMessage(maxBodyBytes) } } : {}),
      requestsPerIpPer5Min: config.wafRequestsPerIpPer5Min,
      logRetention: config.logRetention,
      retainLogs: config.retainData,
      area: props.area,
      ...(props.behindFrontDoor
        ? {
            originVerify: { headerName: ORIGIN_VERIFY_HEADER, value: SecretValue.secretsManager(data.originVerifySecretName).unsafeUnwrap() },
            clientIpHeader: VIEWER_IP_HEADER,
          }
        : {}),
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      name: props.area,
      api: this.http.api,
      functions: [
        ...this.http.routes.map(({ route, fn }) => ({ name: route.id, resource: fn.function })),
        ...Object.entries(this.http.authorizers).map(([keyClass, a]) => ({ name: `${keyClass}-authorizer`, resource: a!.fn.function })),
      ],
    });
    new CfnOutput(this, 'ApiUrl', {
      value: this.http.api.url,
      description: `The ${props.area} REST API stage (reach it through the front door unless this is the admin API)`,
    });
  }
}
