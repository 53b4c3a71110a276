import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppKey } from './app-key.js';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'portal-key-'));

describe('resolveAppKey', () => {
  it('generates a 32-byte key into DATA_DIR/app.key (0600) once, then reuses it', () => {
    const dir = tempDir();
    const first = resolveAppKey(undefined, dir);
    expect(first).toHaveLength(32);
    const file = path.join(dir, 'app.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/);
    expect(resolveAppKey(undefined, dir).equals(first)).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });

  it('prefers APP_KEY and writes no file then', () => {
    const dir = tempDir();
    const key = Buffer.alloc(32, 7);
    expect(resolveAppKey(`base64:${key.toString('base64')}`, dir).equals(key)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'app.key'))).toBe(false);
    fs.rmSync(dir, { recursive: true });
  });

  it('refuses a key file of the wrong length', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'app.key'), 'base64:c2hvcnQ=');
    expect(() => resolveAppKey(undefined, dir)).toThrow('The app key must be 32 bytes');
    fs.rmSync(dir, { recursive: true });
  });
});
