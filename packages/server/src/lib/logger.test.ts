import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino(loggerOptions('info'), stream), text: () => lines.join('') };
}

describe('log redaction', () => {
  it('never writes passwords, tokens, cookies or connection strings', () => {
    const { logger, text } = capture();
    logger.info({ password: 'hunter2-secret', body: { password: 'p-secret', one_time_password: '123456' } }, 'login');
    logger.info({ config: { DATABASE_URL: 'postgres://u:db-secret@h/d', APP_KEY: 'base64:key-secret' } }, 'config');
    logger.info({ token: 'reset-secret', connectionString: 'postgres://u:conn-secret@h/d' }, 'misc');
    const out = text();
    for (const secret of [
      'hunter2-secret',
      'p-secret',
      '123456',
      'db-secret',
      'key-secret',
      'reset-secret',
      'conn-secret',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
  });

  it('logs request paths without the query string, where reset tokens travel', () => {
    const { logger, text } = capture();
    logger.info({ req: { method: 'GET', url: '/reset-password?token=abcdef123456&email=a@b.c', id: 'r1' } }, 'request');
    expect(text()).toContain('"url":"/reset-password"');
    expect(text()).not.toContain('abcdef123456');
  });
});
