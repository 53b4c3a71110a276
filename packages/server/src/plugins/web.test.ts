import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../test/factories.js';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
// The build writes compressed copies beside the assets (packages/web/vite.config.ts).
fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync('console.log(1)'));
fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync('console.log(1)'));

describe('web app serving', () => {
  const ctx = useTestApp({ env: { WEB_DIST_DIR: dist } });

  it('answers every client route with the app, so a reload on a deep link works', async () => {
    for (const url of ['/', '/terms-and-conditions', '/app/monitoring/1/pages/page/7', '/no/such/page?x=1']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends the compressed copy the browser accepts, and says the answer varies with Accept-Encoding', async () => {
    const url = '/assets/app-abc123.js';
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    const plain = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('still serves the app, public calls, the session check and setup to an account whose two-factor is overdue', async () => {
    const overdue = await createUser(ctx.db.handle.db, {
      role: 'superadmin',
      createdAt: new Date(ctx.clock.now().getTime() - 15 * 86_400_000),
    });
    const agent = ctx.agent();
    expect((await agent.login(overdue.email, TEST_PASSWORD)).statusCode).toBe(200);
    for (const url of ['/assets/app-abc123.js', '/', '/superadmin', '/two-factor-settings', '/api/public/config']) {
      expect((await agent.get(url)).statusCode, url).toBe(200);
    }
    const check = await agent.get('/api/auth/check');
    expect(check.json().user.mfa).toEqual({ required: true, days_remaining: 0, overdue: true });
    expect((await agent.get('/api/two-factor')).statusCode).toBe(200);
    // The API calls of the screens themselves wait for two-factor.
    const projects = await agent.get('/super/projects');
    expect(projects.statusCode).toBe(403);
    expect(projects.json()).toMatchObject({ mfa_required: true });
  });

  it('keeps API paths out of the fallback', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/missing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('does not answer writes to client routes with the app', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/terms-and-conditions' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('serves the API reference and the OpenAPI document built from the route schemas', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const spec = await ctx.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(spec.statusCode).toBe(200);
    const doc = spec.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/api/public/terms-and-conditions']),
    );
    const terms = doc.paths['/api/public/terms-and-conditions'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(terms.properties)).toEqual(['content', 'lastUpdated']);
  });
});
