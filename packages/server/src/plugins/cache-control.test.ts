import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { addMember, createProject, createUser, TEST_PASSWORD } from '../../test/factories.js';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');

describe('Cache-Control: answers with personal data are not stored', () => {
  const ctx = useTestApp({ env: { WEB_DIST_DIR: dist } });

  it('sends no-store on the profile, the session list, the project list and the notification list', async () => {
    const db = ctx.db.handle.db;
    const user = await createUser(db);
    const project = await createProject(db, { name: 'North Clinic', activeApps: ['monitoring'] });
    await addMember(db, project.id, user.id, 'admin');
    const agent = ctx.agent();
    const csrf = await agent.csrf();
    expect(csrf.headers['cache-control'], '/sanctum/csrf-cookie').toBe('no-store');
    const login = await agent.login(user.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control'], 'POST /login').toBe('no-store');
    for (const url of [
      '/api/user',
      '/me',
      '/api/auth/check',
      '/api/user/sessions',
      '/api/member/projects',
      `/api/projects/${project.id}`,
      `/api/projects/${project.id}/notifications`,
    ]) {
      const res = await agent.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // Refusals and errors too: a 401 says who is not signed in, a 404 JSON which ids exist.
    const anonymous = ctx.agent();
    for (const url of ['/api/user', '/api/no/such/route']) {
      const res = await anonymous.get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('keeps the caching a route or the web app sets itself', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await ctx.app.inject({ method: 'GET', url: '/member/projects' });
    expect(page.headers['cache-control']).toBe('no-cache');
    const terms = await ctx.app.inject({ method: 'GET', url: '/api/public/terms-and-conditions' });
    expect(terms.headers['cache-control'], terms.body).toBe('no-cache');
  });
});
