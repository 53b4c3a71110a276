import path from 'node:path';
import { z } from 'zod';

/**
 * The only place that reads the environment. Parsed once at start-up; a wrong value stops the server with a
 * message naming the variable. Secrets are never logged (see lib/logger.ts redaction).
 */

const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

const postgresUrl = z
  .string()
  .url('must be a URL like postgres://user:password@host:5432/database')
  .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int('must be a whole number').min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  APP_URL: z.url('must be an absolute URL like https://portal.example.org').optional(),
  DATABASE_URL: postgresUrl.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  APP_KEY: z
    .string()
    .regex(/^base64:[A-Za-z0-9+/]{43}=$/, 'must be "base64:" followed by 32 random bytes in base64')
    .optional(),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Healthcare Quality Portal <no-reply@localhost>'),
  DEMO_DATA: booleanish.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      if (v === 'true') return true as const;
      if (v === 'false') return false as const;
      if (/^\d+$/.test(v)) return Number(v);
      if (/^[0-9a-fA-F.:/, ]+$/.test(v)) return v.split(',').map((s) => s.trim());
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or a list of proxy addresses' });
      return z.NEVER;
    }),
  WEB_DIST_DIR: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /**
   * How long an instance may keep what a signed-in request's session statement read (decision record 029); any
   * change of access anywhere forgets it at once. 0 keeps nothing.
   */
  ACCESS_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /**
   * How long an instance may keep a whole answer of the hottest reads (decision record 032), and in how many MB at
   * most; any change of data or access anywhere forgets them at once. 0 keeps nothing.
   */
  ANSWER_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(300),
  ANSWER_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
  INACTIVITY_TIMEOUT_MINUTES: z.coerce.number().min(0.5).max(1440).default(15),
  MFA_REQUIRED_ROLES: z
    .string()
    .default('superadmin,admin')
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(['superadmin', 'admin', 'simple'], { message: 'must list roles among superadmin, admin, simple' }),
      ),
    ),
  MFA_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  CAPTCHA_PROVIDER: z.enum(['altcha', 'off']).default('altcha'),
  /** ALTCHA proof-of-work cost: higher makes bots pay more and people wait longer (about a second at the default). */
  CAPTCHA_COST: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  /**
   * The policy generator's optional writing assistant (docs/policy-generator.md): the base URL of an
   * OpenAI-compatible API run by the operator (a local llama-server: http://127.0.0.1:8081/v1). Unset: off.
   */
  ASSIST_URL: z.url('must be a URL like http://127.0.0.1:8081/v1').optional(),
  ASSIST_MODEL: z.string().min(1).max(200).default('local-model'),
  ASSIST_API_KEY: z.string().min(1).optional(),
  ASSIST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  /**
   * Tests only: the server's clock runs this many days (fractions allowed, negative too) ahead of the wall clock, so
   * browser tests can live through day 15, 91 or 366 of an installation. Refused unless ALLOW_TEST_CLOCK is true.
   */
  TEST_CLOCK_OFFSET_DAYS: z.coerce.number().min(-3650).max(3650).optional(),
  ALLOW_TEST_CLOCK: booleanish.default(false),
  /** The folder holding pg_dump and pg_restore for `npm run backup` / `restore` (docs/backups.md). Unset: PATH. */
  PG_BIN: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'DATA_DIR' | 'APP_URL'> {
  DATA_DIR: string;
  APP_URL: string;
  /** Demo data is created on first start of an empty database: on by default only for the embedded database. */
  demoData: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, emptyToUndefined(v)]));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const values = parsed.data;
  if (values.TEST_CLOCK_OFFSET_DAYS !== undefined && !values.ALLOW_TEST_CLOCK) {
    throw new ConfigError([
      'TEST_CLOCK_OFFSET_DAYS: moves the clock for tests only; it is refused unless ALLOW_TEST_CLOCK=true is set too',
    ]);
  }
  const hostForUrl = values.HOST === '0.0.0.0' || values.HOST === '::' ? '127.0.0.1' : values.HOST;
  return {
    ...values,
    DATA_DIR: path.resolve(values.DATA_DIR),
    APP_URL: (values.APP_URL ?? `http://${hostForUrl}:${values.PORT}`).replace(/\/$/, ''),
    demoData: values.DEMO_DATA ?? !values.DATABASE_URL,
  };
}
