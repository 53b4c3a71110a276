import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The key that encrypts secrets at rest (two-factor secrets). From APP_KEY, or generated once into
 * DATA_DIR/app.key (mode 0600) on first start. Never logged. Losing it makes stored secrets unreadable:
 * back it up with the database (README "Backup and restore").
 */
export function resolveAppKey(appKey: string | undefined, dataDir: string): Buffer {
  if (appKey) return decode(appKey);
  const file = path.join(dataDir, 'app.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `base64:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return decode(fs.readFileSync(file, 'utf8').trim());
}

function decode(value: string): Buffer {
  const key = Buffer.from(value.replace(/^base64:/, ''), 'base64');
  if (key.length !== 32) throw new Error('The app key must be 32 bytes ("base64:" followed by 44 base64 characters)');
  return key;
}
