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

/** PHP with its XML extension, for SimpleSAMLphp: the SAML identity provider of the single sign-on tests. */
function hasSimpleSamlPhp() {
  if (!fs.existsSync('/usr/share/simplesamlphp/www') || !fs.existsSync('/usr/bin/php')) return false;
  try {
    return execSync('php -m', { encoding: 'utf8' }).split('\n').includes('dom');
  } catch {
    return false;
  }
}

/**
 * What the tests need from the system: Chromium (browser tests) and SimpleSAMLphp with PHP (the SAML identity
 * provider of the API and browser tests), installed from Debian's packages in one go where they are missing.
 */
function ensureSystemPackages() {
  const missing = [
    ...(findChromium() ? [] : ['chromium']),
    ...(hasSimpleSamlPhp() ? [] : ['simplesamlphp', 'php-cli', 'php-xml', 'php-mbstring']),
  ];
  if (!missing.length) return;
  const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(
      `The tests need ${missing.join(', ')}. Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}); ` +
        'Chromium may also be given as CHROMIUM_PATH.',
    );
    process.exit(1);
  }
  step('Install system packages', `apt-get update -qq && apt-get install -y -qq ${missing.join(' ')}`, {
    DEBIAN_FRONTEND: 'noninteractive',
  });
}

checkNode();
ensureInstalled();
step('Lint', 'npx biome check .');
step('Module boundaries', 'node scripts/module-boundaries.mjs');
step('Typecheck', 'npx tsc -b');
ensureBuilt();
ensureSystemPackages();
step('Unit and API tests', 'npx vitest run');
step('Browser tests', 'npx playwright test');
console.log('\nAll tests passed.');
