/**
 * The platform's one DynamoDB table, keys and indexes as functions/kernel/adapters/table-design.ts declares them.
 * Added straight to the data stack's scope rather than wrapped in a construct of its own, so the
 * table's logical id (and with it the deployed table) stays what it has always been.
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE_DESIGN } from '../../functions/kernel/adapters/table-design';
import type { StageConfig } from '../stage-config';

export function addPlatformTable(scope: Construct, config: StageConfig, removalPolicy: RemovalPolicy): dynamodb.TableV2 {
  const attr = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
  return new dynamodb.TableV2(scope, 'Table', {
    partitionKey: attr(TABLE_DESIGN.partitionKey),
    sortKey: attr(TABLE_DESIGN.sortKey),
    billing: dynamodb.Billing.onDemand(),
    timeToLiveAttribute: TABLE_DESIGN.ttlAttribute,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // The AWS managed key (aws/dynamodb): unlike the default AWS owned key its use shows in
    // CloudTrail; unlike a customer-managed key there is no key policy to get wrong, no monthly key
    // fee, and callers need no KMS permissions (DynamoDB caches the table key, so request charges
    // stay small). A customer-managed key would pay off only for cross-account access or
    // crypto-shredding, neither of which the design needs.
    encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
    deletionProtection: config.retainData,
    // Contributor Insights names the hottest partition keys, the first signal of the per-org GSI
    // limit in docs/adr/0007-scale-limits.md. Worth its cost where real traffic is.
    contributorInsightsSpecification: { enabled: config.retainData },
    globalSecondaryIndexes: TABLE_DESIGN.indexes.map((index) => ({
      indexName: index.name,
      partitionKey: attr(index.partitionKey),
      sortKey: attr(index.sortKey),
      projectionType: dynamodb.ProjectionType.ALL,
    })),
    removalPolicy,
  });
}
