import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import type { GeneratedAdministrator } from './modules/users/users.service.js';

/** How long in-flight requests get to finish after SIGTERM/SIGINT before the process exits. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One clear line naming the variable, and no stack trace: the operator fixes the value.
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config, { onGeneratedAdministrator: printAdministrator });

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err !== undefined) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down: finishing requests in flight');
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
}

function printAdministrator({ username, password }: GeneratedAdministrator): void {
  // Printed once, on the start that created the account: it is not stored in clear anywhere.
  process.stdout.write(
    [
      '',
      '==================================================================',
      ' Muri Parlanti: first administrator created',
      `   username: ${username}`,
      `   password: ${password}`,
      ' Keep these now: the password is not shown again. Change it from',
      ' the profile, or set ADMIN_USERNAME/ADMIN_PASSWORD before first start.',
      '==================================================================',
      '',
    ].join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
