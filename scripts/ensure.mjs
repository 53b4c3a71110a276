// Makes a fresh clone runnable: checks Node, installs dependencies when missing or stale, builds when sources
// changed since the last build. Node built-ins only: it runs before node_modules exists.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sh = (command, env = {}) => execSync(command, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node ${process.versions.node} is too old: the portal needs Node 20.19 or newer.`);
    process.exit(1);
  }
}

export function ensureInstalled() {
  const lock = fs.readFileSync(path.join(root, 'package-lock.json'));
  const wanted = createHash('sha256').update(lock).digest('hex');
  const stamp = path.join(root, 'node_modules', '.portal-install-stamp');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return;
  console.log('> Installing dependencies');
  // `npm install --no-save` installs what package-lock.json pins and never rewrites it. Not `npm ci`: the registry
  // this project installs from lacks Biome's binaries for other platforms, so the lock cannot list them and `npm ci`
  // refuses such a lock (docs/decisions/001-stack.md). Playwright drives Debian's Chromium: no browser download.
  sh('npm install --no-save --no-audit --no-fund', { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' });
  fs.writeFileSync(stamp, wanted);
}

const SOURCES = ['packages/shared/src', 'packages/server/src', 'packages/web/src', 'packages/web/public'];
const SOURCE_FILES = ['packages/web/index.html', 'packages/web/vite.config.ts', 'package-lock.json'];

function newestChange() {
  let newest = 0;
  const visit = (p) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of [...SOURCES, ...SOURCE_FILES]) visit(path.join(root, p));
  return newest;
}

export function ensureBuilt() {
  const stamp = path.join(root, 'node_modules', '.portal-build-stamp');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const outputs = ['packages/server/dist/main.js', 'packages/web/dist/index.html'];
  if (built > newestChange() && outputs.every((f) => fs.existsSync(path.join(root, f)))) return;
  console.log('> Building the portal');
  sh('npm run build');
  fs.writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  checkNode();
  ensureInstalled();
  ensureBuilt();
}
