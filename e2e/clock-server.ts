import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DAY_MS = 86_400_000;

/**
 * The built server on one data folder, started again and again with its clock moved (TEST_CLOCK_OFFSET_DAYS, allowed
 * by ALLOW_TEST_CLOCK): an installation living through day 15, 31, 91 and 366 on the data it made on day 0. Emails
 * go to the email log (no SMTP_URL), as on a laptop.
 */
export class ClockServer {
  private child: ChildProcess | null = null;
  private dataDir = '';
  /** The clock of the running server, in days from the wall clock. */
  offsetDays = 0;

  constructor(readonly port: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The server's "now" (the wall clock moved by the offset), for the browser's clock and for TOTP codes. */
  now(): Date {
    return new Date(Date.now() + this.offsetDays * DAY_MS);
  }

  /** A new empty data folder: the next start creates the demo data there, on day 0. */
  async fresh(): Promise<void> {
    await this.stop();
    if (this.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-clock-'));
    fs.chmodSync(this.dataDir, 0o755); // the postgres user must reach the cluster inside
  }

  async start(offsetDays: number): Promise<void> {
    await this.stop();
    this.offsetDays = offsetDays;
    const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        DEMO_DATA: 'true',
        LOG_LEVEL: 'error',
        EMBEDDED_PG_FAST: 'true',
        CAPTCHA_COST: '5000',
        ALLOW_TEST_CLOCK: 'true',
        TEST_CLOCK_OFFSET_DAYS: String(offsetDays),
        SMTP_URL: '',
      },
    });
    this.child = child;
    let exitCode: number | null = null;
    child.once('exit', (code) => {
      exitCode = code ?? -1;
    });
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (exitCode !== null) throw new Error(`The server on day ${offsetDays} stopped at start (exit ${exitCode})`);
      const ok = await fetch(`${this.url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`The server on day ${offsetDays} was not ready within 120 s`);
  }

  /** SIGTERM and wait: the server finishes its requests and stops its database, as Ctrl-C does. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }

  async dispose(): Promise<void> {
    await this.stop();
    if (this.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
