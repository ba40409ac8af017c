/**
 * The console's sign-in on AWS (docs/adr/0042): a Cognito user pool that only authenticates (roles live
 * in the platform's own data), its managed-login domain, and the console's confidential app client.
 *
 * The pool holds the builders' accounts, so it lives in the data stack beside the table and follows its
 * retention. The client's callback and sign-out URLs are the front door's own, which exists only after
 * the area stacks (the edge stack is built last), so the client lives in the edge stack and hands its id
 * and secret to the console functions through a secret with a fixed name: the area stacks refer to it by
 * that name, never by a token of the edge stack.
 */
import { Duration, RemovalPolicy, SecretValue, Stack, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { StageConfig } from '../stage-config';

/** Where the console is served on the front door, and what the client redirects back to. */
export const CONSOLE_PATH = '/console/';
export const CONSOLE_CALLBACK_PATH = '/console/auth/callback';

/** What the `identity:read` grant points at (FunctionContext.consoleIdentity). */
export interface ConsoleIdentityTargets {
  /** `https://cognito-idp.<region>.amazonaws.com/<pool id>`: the `iss` of the pool's tokens and the base of its discovery document. */
  readonly issuerUrl: string;
  /** `https://<prefix>.auth.<region>.amazoncognito.com`: managed login's authorize, token and logout endpoints. */
  readonly authBaseUrl: string;
  /** The secret `{ "client_id": …, "client_secret": … }` of the console's app client, by name. */
  readonly clientSecretName: string;
}

/** The fixed name of the console client's secret: known to the area stacks before the edge stack exists. */
export function consoleClientSecretName(stage: string): string {
  return `platform-${stage}/console-client`;
}

export interface ConsoleUserPoolProps {
  readonly config: StageConfig;
  readonly removalPolicy: RemovalPolicy;
}

/** The user pool and its managed-login domain (data stack). */
export class ConsoleUserPool extends Construct {
  public readonly userPool: cognito.UserPool;
  public readonly domain: cognito.UserPoolDomain;
  public readonly targets: ConsoleIdentityTargets;

  constructor(scope: Construct, id: string, props: ConsoleUserPoolProps) {
    super(scope, id);
    const { config, removalPolicy } = props;
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `platform-${config.stage}-console`,
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // Essentials: managed login and refresh-token rotation without Plus's per-user price; threat
      // protection (Plus) is the documented upgrade (docs/adr/0042).
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: config.retainData,
      removalPolicy,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional (TOTP only, no SMS): builders sign up themselves, and requiring an authenticator app at sign-up would stop most of them; an organisation may require it later through its own policy.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Essentials plan: threat protection (Plus) is priced per monthly active user on top; the pool only authenticates console users, with a 12-character four-class password policy and optional TOTP. Moving to Plus is one property (docs/adr/0042).',
      },
    );

    const { account } = Stack.of(this);
    this.domain = this.userPool.addDomain('Domain', {
      // Prefixes are global per region; the account keeps two accounts' stages apart.
      cognitoDomain: { domainPrefix: `platform-${config.stage}-${account}` },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    this.targets = {
      issuerUrl: this.userPool.userPoolProviderUrl,
      authBaseUrl: this.domain.baseUrl(),
      clientSecretName: consoleClientSecretName(config.stage),
    };
  }
}

export interface ConsoleClientProps {
  readonly config: StageConfig;
  readonly userPool: cognito.IUserPool;
  /** `https://<front door domain>`: the console's origin. */
  readonly consoleOrigin: string;
}

/** The console's confidential app client, its managed-login branding and its secret (edge stack). */
export class ConsoleClient extends Construct {
  public readonly client: cognito.UserPoolClient;
  public readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: ConsoleClientProps) {
    super(scope, id);
    const { config, userPool, consoleOrigin } = props;
    this.client = new cognito.UserPoolClient(this, 'Client', {
      userPool,
      userPoolClientName: `platform-${config.stage}-console`,
      generateSecret: true,
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
        callbackUrls: [`${consoleOrigin}${CONSOLE_CALLBACK_PATH}`],
        logoutUrls: [`${consoleOrigin}${CONSOLE_PATH}`],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      // A used refresh token is replaced; the grace period covers a retry of a lost answer. Rotation
      // refuses the REFRESH_TOKEN_AUTH flow, which Cognito would enable with its default flows, so the
      // flows are named: SRP only (sign-in itself goes through managed login and the code grant).
      refreshTokenRotationGracePeriod: Duration.seconds(10),
      authFlows: { userSrp: true },
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
    new cognito.CfnManagedLoginBranding(this, 'Branding', {
      userPoolId: userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });
    // The secret is a CloudFormation attribute of the client: the template names it, never holds it.
    const clientResource = this.client.node.defaultChild as cognito.CfnUserPoolClient;
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      secretName: consoleClientSecretName(config.stage),
      description: "The console's Cognito app client: its id and generated secret, read by the console functions",
      secretObjectValue: {
        client_id: SecretValue.unsafePlainText(this.client.userPoolClientId),
        client_secret: SecretValue.resourceAttribute(clientResource.attrClientSecret),
      },
      // The client is recreated with the edge stack; the secret follows it.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Cognito generates the client secret and cannot rotate it in place; it is rotated by replacing the app client (a new logical id), which writes the new id and secret here in the same deployment.',
    });
  }
}
