import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DAY_MS = 86_400_000;

/**
 * The built server on one data folder, started again and again with its clock moved (TEST_CLOCK_OFFSET_DAYS, allowed
 * by ALLOW_TEST_CLOCK): an installation living through day 15, 31, 91 and 366 on the data it made on day 0. Emails
 * go to a real SMTP server in this process (the email log keeps no set-password link, so tests follow the mail).
 */
export class ClockServer {
  private child: ChildProcess | null = null;
  private dataDir = '';
  /** The clock of the running server, in days from the wall clock. */
  offsetDays = 0;
  /** Every message the server sent, across its restarts. */
  readonly inbox: { to: string[]; subject: string; text: string }[] = [];
  private smtp: SMTPServer | null = null;
  private smtpUrl = '';

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

  private async startSmtp(): Promise<void> {
    if (this.smtp) return;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, done) => {
        let raw = '';
        stream.on('data', (chunk: Buffer) => {
          raw += chunk.toString('utf8');
        });
        stream.on('end', () => {
          const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
          // nodemailer's quoted-printable undone: soft line breaks and =XX escapes.
          const text = rest
            .join('\n\n')
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
          this.inbox.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: head.match(/^Subject: (.*)$/m)?.[1] ?? '',
            text,
          });
          done();
        });
      },
    });
    // A server stopped mid-conversation resets its connection: not an error of the catcher.
    smtp.on('error', () => {});
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    this.smtp = smtp;
    this.smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  }

  async start(offsetDays: number): Promise<void> {
    await this.stop();
    await this.startSmtp();
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
        SMTP_URL: this.smtpUrl,
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
    await new Promise<void>((resolve) => (this.smtp ? this.smtp.close(() => resolve()) : resolve()));
    this.smtp = null;
    if (this.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
