import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { openDatabase } from './db/open.js';
import { type Jobs, startJobs } from './jobs/index.js';
import { resolveAppKey } from './lib/app-key.js';
import { days, offsetClock, systemClock } from './lib/clock.js';
import { loggerOptions } from './lib/logger.js';
import { createShutdown, startHousekeeping } from './lifecycle.js';
import { failInterruptedImports } from './modules/monitoring/imports.commit.js';
import { countDemoAccounts, DEMO_ACCOUNTS, DEMO_PASSWORD, isEmptyDatabase, seedDemoData } from './seed/demo.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Written asynchronously (a request does not wait for the terminal); pino flushes what is left when the process exits.
  const logger = pino(loggerOptions(config.LOG_LEVEL), pino.destination({ sync: false }));
  const log = (message: string) => logger.info(message);

  let opened: Awaited<ReturnType<typeof openDatabase>>;
  let appKey: Buffer;
  try {
    appKey = resolveAppKey(config.APP_KEY, config.DATA_DIR);
    opened = await openDatabase(config, log);
  } catch (error) {
    logger.fatal(error instanceof DataDirLockedError ? error.message : { err: error }, 'The portal could not start');
    process.exit(1);
  }
  const { database } = opened;
  // A CSV import commit runs inside this process: one left 'committing' was cut off by a stop (nothing was saved).
  const interrupted = await failInterruptedImports(database.db);
  if (interrupted > 0) logger.warn(`${interrupted} CSV import(s) interrupted by the last stop were marked failed`);

  // Everything that depends on time reads this clock; tests may start the server at an offset (config.ts).
  const clock = config.TEST_CLOCK_OFFSET_DAYS ? offsetClock(days(config.TEST_CLOCK_OFFSET_DAYS)) : systemClock;
  if (clock !== systemClock) {
    logger.warn(
      `Test clock: this server lives ${config.TEST_CLOCK_OFFSET_DAYS} day(s) from now (${clock.now().toISOString()}). Never in real use.`,
    );
  }
  if (config.demoData && (await isEmptyDatabase(database.db))) {
    await seedDemoData(database.db, appKey, clock.now());
    logger.info('Demo data created: project 1 "Demo Facility" and the demo accounts');
  }
  if ((await countDemoAccounts(database.db)) > 0) {
    logger.warn(
      'Demo accounts with a published password exist. Disable or delete them before real use (README "Demo data").',
    );
  }

  const app = await buildApp({ config, database, logger, appKey, clock });
  const housekeeping = startHousekeeping(app);
  // The outbox: every instance delivers what is due (claims keep two from sending the same message).
  app.mailer.startDelivery((error) => logger.error({ err: error }, 'Email delivery failed; it is tried again'));
  // Background jobs (review reminders): a failure to start them is logged, the portal still serves.
  let jobs: Jobs | undefined;
  try {
    jobs = await startJobs({ pool: database.pool, db: database.db, mailer: app.mailer, clock: app.clock, log: logger });
  } catch (error) {
    logger.error({ err: error }, 'Background jobs did not start: review reminders are not sent');
  }

  const shutdown = createShutdown({
    app,
    release: async () => {
      clearInterval(housekeeping);
      await app.mailer.stopDelivery();
      await jobs?.stop().catch((error) => logger.error({ err: error }, 'Background jobs did not stop cleanly'));
      await opened.close();
    },
  });
  const stop = (signal: string) =>
    shutdown(signal).then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    logger.fatal({ err: error }, `Could not listen on ${config.HOST}:${config.PORT}`);
    await opened.close();
    process.exit(1);
  }
  logger.info({ url: config.APP_URL }, `Portal ready at ${config.APP_URL}`);
  if ((await countDemoAccounts(database.db)) > 0) {
    logger.info(
      { accounts: DEMO_ACCOUNTS.map((a) => a.email) },
      `Demo logins: ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')} (password ${DEMO_PASSWORD})`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
