import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.APP_URL).toBe('http://127.0.0.1:8080');
    expect(config.DATA_DIR).toMatch(/\/data$/);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.demoData).toBe(true);
  });

  it('turns demo data off for an external database unless asked for', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/portal' }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/portal', DEMO_DATA: 'true' }).demoData).toBe(true);
    expect(loadConfig({ DEMO_DATA: 'false' }).demoData).toBe(false);
  });

  it('moves the clock only when the test flag is set', () => {
    expect(problems({ TEST_CLOCK_OFFSET_DAYS: '15' })[0]).toMatch(/^TEST_CLOCK_OFFSET_DAYS: .*ALLOW_TEST_CLOCK=true/);
    expect(problems({ TEST_CLOCK_OFFSET_DAYS: '15', ALLOW_TEST_CLOCK: 'false' })).toHaveLength(1);
    expect(loadConfig({ TEST_CLOCK_OFFSET_DAYS: '15.5', ALLOW_TEST_CLOCK: 'true' }).TEST_CLOCK_OFFSET_DAYS).toBe(15.5);
    expect(loadConfig({}).TEST_CLOCK_OFFSET_DAYS).toBeUndefined();
  });

  it('names the variable of every wrong value', () => {
    const found = problems({ PORT: 'eighty', DATABASE_URL: 'mysql://localhost/db', LOG_LEVEL: 'loud' });
    expect(found.some((p) => p.startsWith('PORT:'))).toBe(true);
    expect(found.some((p) => p.startsWith('DATABASE_URL:'))).toBe(true);
    expect(found.some((p) => p.startsWith('LOG_LEVEL:'))).toBe(true);
  });

  it('rejects a malformed APP_KEY, APP_URL, SMTP_URL, DEMO_DATA and TRUST_PROXY', () => {
    expect(problems({ APP_KEY: 'short' })[0]).toMatch(/^APP_KEY:/);
    expect(problems({ APP_URL: 'not a url' })[0]).toMatch(/^APP_URL:/);
    expect(problems({ SMTP_URL: 'http://mail' })[0]).toMatch(/^SMTP_URL:/);
    expect(problems({ DEMO_DATA: 'maybe' })[0]).toMatch(/^DEMO_DATA:/);
    expect(problems({ TRUST_PROXY: 'everyone!' })[0]).toMatch(/^TRUST_PROXY:/);
  });

  it('does not echo secret values in its messages', () => {
    const secret = 'postgres-password-123';
    const found = problems({ DATABASE_URL: `mysql://root:${secret}@db/x`, APP_KEY: `base64:${secret}` });
    expect(found.join('\n')).not.toContain(secret);
  });

  it('reads TRUST_PROXY as a boolean, hop count or address list', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).TRUST_PROXY).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('treats empty variables as unset and strips a trailing slash from APP_URL', () => {
    expect(loadConfig({ PORT: '', APP_URL: 'https://portal.example.org/' })).toMatchObject({
      PORT: 8080,
      APP_URL: 'https://portal.example.org',
    });
  });
});
