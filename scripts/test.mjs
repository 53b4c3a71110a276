// `npm test`: every test the project has, in the order that fails fastest: lint, typecheck, unit and API tests,
// then the browser tests against the built server. Stops at the first failing step.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkNode, ensureBuilt, ensureInstalled } from './ensure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function step(title, command, env = {}) {
  console.log(`\n=== ${title}: ${command}`);
  const started = Date.now();
  try {
    execSync(command, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  } catch {
    console.error(`\n=== ${title} FAILED`);
    process.exit(1);
  }
  console.log(`=== ${title} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => p && fs.existsSync(p));
}

function ensureChromium() {
  if (findChromium()) return;
  const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(
      'The browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
    process.exit(1);
  }
  step('Install Chromium', 'apt-get update -qq && apt-get install -y -qq chromium', {
    DEBIAN_FRONTEND: 'noninteractive',
  });
}

checkNode();
ensureInstalled();
step('Lint', 'npx biome check .');
step('Module boundaries', 'node scripts/module-boundaries.mjs');
step('Typecheck', 'npx tsc -b');
ensureBuilt();
step('Unit and API tests', 'npx vitest run');
ensureChromium();
step('Browser tests', 'npx playwright test');
console.log('\nAll tests passed.');
