import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';

// A file of its own: once terms are published, every sign-in in this database must accept them.
describe('superadmin: terms and conditions', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const superAgent = async () => ctx.signedIn(await createUser(db(), { role: 'superadmin' }));

  it('publishes new terms: every user must accept them at the next sign-in; history counts acceptances', async () => {
    const agent = await superAgent();
    const empty = await agent.put('/super/terms/draft', { content: '<p> </p>' });
    expect(empty.statusCode).toBe(400);
    const draft = await agent.put('/super/terms/draft', {
      content: '<h2>Use</h2><p onclick="x()">Be careful.</p><script>alert(1)</script>',
    });
    expect(draft.json()).toMatchObject({ status: 'draft', content: '<h2>Use</h2><p>Be careful.</p>' });
    expect((await agent.get('/super/terms/editor')).json().draft.id).toBe(draft.json().id);

    const nurse = await createUser(db());
    const first = await agent.post('/super/terms/publish', { content: '<p>Version one.</p>' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ id: draft.json().id, status: 'published' });
    const login = await ctx.agent().login(nurse.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(422);
    expect((await ctx.agent().login(nurse.email, TEST_PASSWORD, { accept_terms: true })).statusCode).toBe(200);

    ctx.clock.advance(60_000);
    const second = await agent.post('/super/terms/publish', { content: '<p>Version two.</p>' });
    expect(second.statusCode).toBe(201);
    const check = await ctx.agent().get(`/check-terms?email=${encodeURIComponent(nurse.email)}`);
    expect(check.json().status).toBe('needs_update_acceptance');

    const history = (await agent.get('/super/terms')).json();
    const counts = Object.fromEntries(
      history.versions.map((v: { id: number; accepted_count: number }) => [v.id, v.accepted_count]),
    );
    expect(counts[first.json().id]).toBe(1);
    expect(counts[second.json().id]).toBe(0);
    expect(history.pending_acceptance).toBeGreaterThan(0);
    expect((await agent.get(`/super/terms/${first.json().id}`)).json().content).toBe('<p>Version one.</p>');
  });
});
