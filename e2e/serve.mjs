// Runs the built server for the browser tests on a fresh temporary DATA_DIR, and removes it afterwards.
// Usage: node e2e/serve.mjs PORT DEMO_DATA [MAIL_PORT]
// With MAIL_PORT, a real SMTP server on 127.0.0.1 receives the portal's email, and GET http://127.0.0.1:MAIL_PORT/
// answers what it received as JSON ({ to, subject, text }[]), so tests can follow links from emails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [port, demoData = 'true', mailPort] = process.argv.slice(2);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
fs.chmodSync(dataDir, 0o755); // the postgres user must reach the cluster inside

// EMBEDDED_PG_FAST: a throwaway cluster needs no durability (fsync, synchronous_commit, full_page_writes off; tests only).
const env = {
  ...process.env,
  PORT: port,
  DATA_DIR: dataDir,
  DEMO_DATA: demoData,
  LOG_LEVEL: 'warn',
  EMBEDDED_PG_FAST: process.env.EMBEDDED_PG_FAST ?? 'true',
};
let smtp;
let inbox;
if (mailPort) {
  const received = [];
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parse(raw) });
        done();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  env.SMTP_URL = `smtp://127.0.0.1:${smtp.server.address().port}`;
  inbox = http
    .createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(received));
    })
    .listen(Number(mailPort), '127.0.0.1');
}

/** Subject and plain text of a simple message (nodemailer's quoted-printable undone). */
function parse(raw) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = head.match(/^Subject: (.*)$/m)?.[1] ?? '';
  const text = rest
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
  return { subject, text };
}

const server = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  smtp?.close();
  inbox?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
