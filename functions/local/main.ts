/**
 * `npm start`: the local platform on http://127.0.0.1:${PORT:-3000} with data under ./.data.
 * Configuration is read from the environment (README, "Configuration").
 */
import { DataDirLockedError } from './lock';
import { ConfigError, localPlatformOptions } from './main-options';
import { startPlatform } from './local-platform';
import { consoleUrlOf, type RunningConsoleSignIn } from './console-sign-in';
import { ensureConsoleBuilt } from './console-build';

function consoleSignInLines(baseUrl: string, signIn: RunningConsoleSignIn | undefined): string[] {
  if (!signIn) return [];
  const note = (u: RunningConsoleSignIn['users'][number]) => (u.role ? '' : '   (in no org: invite them before they first sign in)');
  const users = signIn.users.map((u, i) => `  ${(i === 0 ? 'console users' : '').padEnd(16)}${u.email.padEnd(22)} password ${u.password}${note(u)}`);
  return ['', `  console         ${consoleUrlOf(baseUrl)}`, `  OpenID issuer   ${signIn.settings.issuer.issuer}   (console sign-in)`, ...users];
}

async function main(): Promise<void> {
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  // Versions are pinned in the lockfile; the SDK's notice about future releases is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= process.env.LOG_LEVEL ?? 'WARN';
  const options = localPlatformOptions(process.env);
  const consoleBuild = await ensureConsoleBuilt();
  if (consoleBuild.built) console.log(`console built in ${(consoleBuild.ms / 1000).toFixed(1)} s`);
  const platform = await startPlatform(options);
  const demo = platform.demo!;
  const devWebhooks = options.devWebhookListeners
    ? ['', '  PLATFORM_DEV_WEBHOOKS=1: local webhook listeners accepted (development only); in another terminal:', '  npm run admin -- webhooks listen']
    : [];
  console.log(
    [
      `Application Platform API running at ${platform.baseUrl}`,
      '',
      `  org id          ${demo.orgId}`,
      `  org key         ${demo.orgKey}   (apps:read transcripts:read usage:read tombstones:read)`,
      `  app id          ${demo.appId}`,
      `  app model       ${demo.appNameId}`,
      `  chat API key    ${demo.chatKey}`,
      `  admin token     ${demo.adminToken}`,
      ...(options.openAiBaseUrl ? [`  model server    ${options.openAiBaseUrl}   (for apps whose model is openai:<name>)`] : []),
      ...consoleSignInLines(platform.baseUrl, platform.consoleSignIn),
      '',
      `  saved to ${process.env.DATA_DIR ?? '.data'}/demo.json; try:`,
      `  curl -H "Authorization: Bearer ${demo.orgKey}" ${platform.baseUrl}/api/v1/org/apps`,
      ...devWebhooks,
      '',
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    platform.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`platform: shutdown failed: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof DataDirLockedError || err instanceof ConfigError) console.error(`platform: ${err.message}`);
  else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`platform: port ${process.env.PORT ?? 3000} is already in use; set PORT to another port`);
  else console.error(`platform: failed to start: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});
