import { describe, expect, it } from 'vitest';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { connectDatabase } from '../../db/client.js';

describe('health', () => {
  const ctx = useTestApp();

  it('GET /healthz answers while the process is alive', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /readyz is ready when the database answers and every migration is applied', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'ok' });
  });

  it('GET /readyz answers 503 while shutting down', async () => {
    ctx.app.shuttingDown = true;
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().status).toBe('not_ready');
    } finally {
      ctx.app.shuttingDown = false;
    }
  });

  it('GET /readyz answers 503 when a migration is missing', async () => {
    const { pool } = ctx.db.handle;
    const { rows } = await pool.query('delete from drizzle.__drizzle_migrations returning *');
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', database: 'ok', migrations: 'pending' });
    } finally {
      for (const row of rows) {
        await pool.query('insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)', [
          row.id,
          row.hash,
          row.created_at,
        ]);
      }
    }
  });

  it('GET /readyz answers 503 when the database is unreachable', async () => {
    const unreachable = connectDatabase('postgres://postgres@127.0.0.1:1/none');
    const app = await buildApp({
      config: loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1:1/none' }),
      database: unreachable,
      appKey: TEST_APP_KEY,
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', database: 'unreachable', migrations: 'unknown' });
    } finally {
      await app.close();
      await unreachable.close();
    }
  });
});
