import type { LoggerOptions } from 'pino';

/** Paths never written to the log, whatever a route or library puts in a log line. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'password_confirmation',
  '*.password_confirmation',
  'one_time_password',
  '*.one_time_password',
  'token',
  '*.token',
  'appKey',
  '*.appKey',
  'APP_KEY',
  '*.APP_KEY',
  'DATABASE_URL',
  '*.DATABASE_URL',
  'SMTP_URL',
  '*.SMTP_URL',
  'connectionString',
  '*.connectionString',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Query strings can carry reset tokens: log the path only.
    serializers: {
      req(request: { method: string; url: string; id: string; ip?: string }) {
        return { method: request.method, url: request.url.split('?')[0], id: request.id, ip: request.ip };
      },
    },
  };
}
