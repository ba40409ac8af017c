/**
 * The cdk-nag findings of CDK's BucketDeployment handler, acknowledged narrowly for one destination
 * bucket. The handler is CDK's own singleton, created at stack level beside the first deployment, so
 * every bucket the stack deploys files into adds its own object resource to the one handler's policy.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type * as s3 from 'aws-cdk-lib/aws-s3';

/** Call after the bucket's deployments exist; `what` names the files, for the reasons. */
export function acknowledgeBucketDeploymentHandler(bucket: s3.Bucket, what: string): void {
  const stack = Stack.of(bucket);
  const { account, region, partition } = stack;
  const bucketId = stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
  const handlers = stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!handlers.length) throw new Error(`no BucketDeployment handler in ${stack.stackName}: create the deployments of ${what} first`);
  for (const handler of handlers) {
    Validations.of(handler).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's BucketDeployment handler uses the AWS managed basic execution role (its own log group only).",
      },
      ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `CDK's BucketDeployment handler copies ${what} from the CDK asset bucket into its bucket; CDK grants it these action groups on those buckets only.`,
      })),
      {
        id: `AwsSolutions-IAM5[Resource::arn:${partition === 'aws' || !partition ? 'aws' : partition}:s3:::cdk-hnb659fds-assets-${account}-${region}/*]`,
        reason: `The objects of the CDK asset bucket ${what} is staged in.`,
      },
      { id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`, reason: `The objects of the bucket the handler writes ${what} into.` },
      { id: 'AwsSolutions-L1', reason: "The runtime of CDK's BucketDeployment handler is chosen by aws-cdk-lib and moves with it." },
    );
  }
}
