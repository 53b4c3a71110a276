import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { runningEmbeddedUrl } from '../db/open.js';
import { BackupError, backupDatabase, configuredAppKeyId, findPgTool, formatBytes } from '../lib/backup.js';
import { embeddedDatabase, externalDatabase, readCommandLine, runBackupCommand } from './command-line.js';

/**
 * npm run backup -- [file]
 * Backs up the whole database (uploaded files included) with pg_dump, and writes the manifest beside it
 * (docs/backups.md). Default file: backups/portal-YYYYMMDD-HHMMSS.dump (UTC) under the current folder.
 * The embedded database is backed up whether the portal runs or not: pg_dump reads one consistent snapshot.
 */
const USAGE =
  'Usage: npm run backup -- [file]\n' +
  'Default file: backups/portal-YYYYMMDD-HHMMSS.dump (UTC time) under the current folder. See docs/backups.md.';

function defaultBackupFile(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.resolve('backups', `portal-${stamp}.dump`);
}

interface Source {
  url: string;
  description: string;
  /** The pid of the running portal whose embedded database this is. */
  runningPid?: number;
  close(): Promise<void>;
}

/** The database to back up: DATABASE_URL, the embedded one (started for the backup), or a running portal's. */
async function openSource(config: Config): Promise<Source> {
  if (config.DATABASE_URL) {
    return externalDatabase(config.DATABASE_URL);
  }
  if (!fs.existsSync(path.join(config.DATA_DIR, 'postgres', 'PG_VERSION'))) {
    throw new BackupError(
      `There is no embedded database in ${config.DATA_DIR} yet: nothing to back up. ` +
        'Set DATA_DIR to the portal’s data folder, or DATABASE_URL for an external database.',
    );
  }
  try {
    return await embeddedDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const url = runningEmbeddedUrl(config.DATA_DIR);
    if (!url) {
      throw new BackupError(
        `The portal (pid ${error.pid}) is running on ${config.DATA_DIR} and its database cannot be reached: ` +
          'stop the portal first, then run npm run backup again.',
      );
    }
    return {
      url,
      description: `the embedded database of the running portal (pid ${error.pid}) in ${config.DATA_DIR}`,
      runningPid: error.pid,
      close: async () => {},
    };
  }
}

const parseArguments = () => parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });

async function main(): Promise<number> {
  const args = readCommandLine(parseArguments, USAGE, (files) => files <= 1);
  if (typeof args === 'number') return args;
  const { positionals } = args;
  const config = loadConfig();
  const file = positionals[0] ? path.resolve(positionals[0]) : defaultBackupFile();
  // Before starting anything: a missing pg_dump is the most likely problem on a new machine.
  await findPgTool('pg_dump', config.PG_BIN);
  const source = await openSource(config);
  try {
    console.log(`Backing up ${source.description} ...`);
    const { manifest, manifestFile, durationMs } = await backupDatabase(source.url, file, {
      ...(config.PG_BIN ? { pgBin: config.PG_BIN } : {}),
      appKeyId: configuredAppKeyId(config.APP_KEY, config.DATA_DIR),
    }).catch((error: Error) => {
      if (source.runningPid === undefined || error instanceof BackupError) throw error;
      throw new BackupError(
        `Could not back up the database of the running portal (pid ${source.runningPid}): ${error.message}. ` +
          'If it is starting or stopping, try again in a moment; otherwise stop the portal first.',
      );
    });
    const shown = path.relative(process.cwd(), file) || file;
    console.log(
      `Backup written: ${shown} (${formatBytes(manifest.dump.bytes)}) in ${(durationMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  ${manifest.totals.tables} tables, ${manifest.totals.rows.toLocaleString('en-US')} rows, ` +
        `${manifest.files.count} uploaded files (${formatBytes(manifest.files.bytes)}), ` +
        `${manifest.migrations} schema migrations`,
    );
    console.log(`  Manifest: ${path.relative(process.cwd(), manifestFile) || manifestFile}`);
    const chain = manifest.audit_chain;
    if (!chain.ok) {
      console.error(
        '  Warning: the audit trail does NOT verify in this database; npm run audit:verify names the break.',
      );
    } else if (chain.head_hash) {
      console.log(
        `  Audit trail head hash: ${chain.head_hash} (${chain.verified} events); keep it apart from the backup`,
      );
    }
    if (manifest.files.damaged) {
      console.error(`  Warning: ${manifest.files.damaged} uploaded files no longer match their SHA-256.`);
    }
    const keyFile = path.join(config.DATA_DIR, 'app.key');
    if (config.APP_KEY) console.log('  Keep APP_KEY too (apart): without it two-factor secrets cannot be read.');
    else if (fs.existsSync(keyFile)) {
      console.log(`  Keep ${keyFile} too (apart): without it two-factor secrets cannot be read.`);
    } else {
      console.log(
        `  No app key here (APP_KEY or ${keyFile}): keep the key of the portal that uses this database too, ` +
          'without it two-factor secrets cannot be read.',
      );
    }
    return 0;
  } finally {
    await source.close();
  }
}

runBackupCommand(main, 'Could not back up the database');
