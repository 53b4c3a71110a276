import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type Config, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { MIGRATIONS_FOLDER } from '../db/migrate.js';
import {
  BackupError,
  configuredAppKeyId,
  databaseHasData,
  findPgTool,
  formatBytes,
  manifestPathFor,
  readManifest,
  restoreDatabase,
} from '../lib/backup.js';
import { embeddedDatabase, externalDatabase, readCommandLine, runBackupCommand } from './command-line.js';

/**
 * npm run restore -- <file> [--yes] [--no-verify]
 * Restores a backup made by `npm run backup` into the configured database (DATABASE_URL, or the embedded one in
 * DATA_DIR: stop the portal first), then verifies every table's row count and checksum, the uploaded files and the
 * audit trail's head hash against the backup's manifest. Exit code 0: restored and verified; 1: restored but it does
 * not match the manifest; 2: nothing was restored (refused, or an error). See docs/backups.md.
 */
const USAGE =
  'Usage: npm run restore -- <file> [--yes] [--no-verify]\n' +
  '  --yes        replace the data of a database that is not empty\n' +
  '  --no-verify  restore a dump that has no manifest beside it (it cannot be verified)\n' +
  'See docs/backups.md.';

interface Target {
  url: string;
  description: string;
  close(): Promise<void>;
}

async function openTarget(config: Config): Promise<Target> {
  if (config.DATABASE_URL) {
    return externalDatabase(config.DATABASE_URL);
  }
  try {
    return await embeddedDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new BackupError(
      `The portal (pid ${error.pid}) is running on ${config.DATA_DIR}: stop it first. ` +
        'A restore replaces its database under it; start the portal again once the restore is done.',
    );
  }
}

const parseArguments = () =>
  parseArgs({
    allowPositionals: true,
    options: {
      yes: { type: 'boolean', short: 'y' },
      'no-verify': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });

async function main(): Promise<number> {
  const args = readCommandLine(parseArguments, USAGE, (files) => files === 1);
  if (typeof args === 'number') return args;
  const { positionals, values } = args;
  const config = loadConfig();
  const file = path.resolve(positionals[0]!);
  if (!fs.existsSync(file)) {
    console.error(`There is no backup file ${file}.`);
    return 2;
  }
  const manifest = readManifest(file);
  if (!manifest && !values['no-verify']) {
    console.error(
      `There is no manifest (${manifestPathFor(file)}) beside the backup, so the restore could not be verified. ` +
        'Run again with --no-verify to restore it anyway.',
    );
    return 2;
  }

  // Before starting anything: missing client tools are the most likely problem on a new machine.
  await findPgTool('pg_restore', config.PG_BIN);
  await findPgTool('psql', config.PG_BIN);
  const target = await openTarget(config);
  try {
    if (!values.yes && (await databaseHasData(target.url))) {
      console.error(
        `This replaces every row of ${target.description} with the backup ${path.basename(file)}` +
          `${manifest ? ` (taken ${manifest.created_at})` : ''}. Run again with --yes to go ahead.`,
      );
      return 2;
    }
    console.log(`Restoring ${path.basename(file)} into ${target.description} ...`);
    const result = await restoreDatabase(file, target.url, {
      ...(config.PG_BIN ? { pgBin: config.PG_BIN } : {}),
      manifest,
    });
    const seconds = (result.durationMs / 1000).toFixed(1);
    if (!result.manifest || !result.state) {
      console.log(`Restored in ${seconds} s, NOT verified (no manifest).`);
      return 0;
    }
    const m = result.manifest;
    console.log(
      `Restored in ${seconds} s: the backup taken ${m.created_at} of ${m.database} ` +
        `(portal ${m.app_version}, ${m.migrations} schema migrations, PostgreSQL ${m.postgres_version}).`,
    );
    printNotes(config, m.migrations, m.app_key_id);
    if (result.mismatches.length) {
      console.error('The restored database does NOT match the backup:');
      for (const mismatch of result.mismatches) console.error(`  - ${mismatch.subject} ${mismatch.message}`);
      return 1;
    }
    const { state } = result;
    console.log(
      `Verified: all ${m.totals.tables} tables and ${m.totals.rows.toLocaleString('en-US')} rows match the backup ` +
        `(row counts and checksums); ${state.files.count} uploaded files (${formatBytes(state.files.bytes)}) ` +
        'match their SHA-256.',
    );
    if (m.audit_chain.head_hash) {
      console.log(
        `The audit trail verifies (${state.audit_chain.verified} events) and ends on the backup's head hash ` +
          `${m.audit_chain.head_hash}: compare it with the one you keep apart.`,
      );
    }
    return 0;
  } finally {
    await target.close();
  }
}

function printNotes(config: Config, backupMigrations: number, backupKeyId: string | null): void {
  const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
  if (backupMigrations < known) {
    console.log(`  The portal applies ${known - backupMigrations} newer schema migrations when it next starts.`);
  } else if (backupMigrations > known) {
    console.error(
      `  Warning: the backup comes from a newer portal (${backupMigrations} schema migrations, this one knows ` +
        `${known}): update the portal before starting it.`,
    );
  }
  const keyId = configuredAppKeyId(config.APP_KEY, config.DATA_DIR);
  if (backupKeyId && keyId !== backupKeyId) {
    console.error(
      keyId
        ? '  Warning: the app key in use differs from the one of the backed-up portal: two-factor secrets will not ' +
            'decrypt. Put the backed-up app.key in DATA_DIR (or set APP_KEY to it) before starting the portal.'
        : '  Put the backed-up portal’s app key in DATA_DIR/app.key (or APP_KEY) before starting the portal: ' +
            'two-factor secrets need it.',
    );
  }
}

runBackupCommand(main, 'Could not restore the database');
