// Runs the built server for the browser tests on a fresh temporary DATA_DIR, and removes it afterwards.
// Usage: node e2e/serve.mjs PORT [DEMO_DATA]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [port, demoData = 'true'] = process.argv.slice(2);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
fs.chmodSync(dataDir, 0o755); // the postgres user must reach the cluster inside

const server = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: port, DATA_DIR: dataDir, DEMO_DATA: demoData, LOG_LEVEL: 'warn' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
