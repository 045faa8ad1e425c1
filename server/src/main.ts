import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { describeStartupFailure } from './lib/startup-failure.js';
import { isGalleryEmpty, seedDemoContent } from './demo/seed.js';
import { enqueueImageAnalysis } from './jobs/image-analysis/image-analysis.job.js';
import type { GeneratedAdministrator } from './modules/users/users.service.js';

/** How long in-flight requests get to finish after SIGTERM/SIGINT before the process exits. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: AppConfig;
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    config = loadConfig();
    // Some values can only be checked against the database (ADMIN_EMAIL's owner).
    app = await buildApp(config, { onGeneratedAdministrator: printAdministrator });
  } catch (error) {
    if (error instanceof ConfigError) {
      // One clear line naming the variable, and no stack trace: the operator fixes the value.
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    // The database unreachable, the data folder read-only or full: one line with its reason.
    process.stderr.write(`Failed to start: ${describeStartupFailure(error, 'data')}\n`);
    process.exit(1);
  }

  if (config.demoContent && (await isGalleryEmpty(app.ctx))) {
    process.stdout.write('Empty gallery: generating the demo content (DEMO_CONTENT=0 skips it)…\n');
    const summary = await seedDemoContent(app.ctx, {
      images: config.demoImages,
      afterImage: async (id) => {
        await enqueueImageAnalysis(app.ctx.database.db, app.ctx.clock, id);
        await app.ctx.search.reindexImage(id);
      },
    });
    process.stdout.write(
      `Demo content ready in ${summary.seconds} s: ${summary.users} users, ` +
        `${summary.categories} categories, ${summary.tags} tags, ${summary.approved} approved ` +
        `images (${summary.duplicateGroups} photographed twice), ${summary.pending} pending, ` +
        `${summary.rejected} rejected, ${summary.follows} follows, ${summary.interactions} ` +
        'reactions and views. The text on the walls is read in the background.\n',
    );
  }

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err !== undefined) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down: finishing requests in flight');
    await app.close();
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    process.stderr.write(`Failed to start: ${describeStartupFailure(error, 'listen')}\n`);
    process.exit(1);
  }
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
  // The demo content's writing, the only step left between the two above.
  process.stderr.write(`Failed to start: ${describeStartupFailure(error, 'data')}\n`);
  process.exit(1);
});
