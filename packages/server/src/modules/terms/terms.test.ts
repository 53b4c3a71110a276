import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { auditEvents, termsVersions } from '../../db/schema/index.js';
import { publishTermsVersion } from './terms.service.js';

describe('GET /api/public/terms-and-conditions', () => {
  const ctx = useTestApp();
  const get = () => ctx.app.inject({ method: 'GET', url: '/api/public/terms-and-conditions' });

  it('answers nulls while no version is published', async () => {
    await ctx.db.handle.db.insert(termsVersions).values({ content: '<p>Draft only</p>', status: 'draft' });
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ content: null, lastUpdated: null });
  });

  it('answers the newest published version with its publication date, needing no sign-in', async () => {
    const { db } = ctx.db.handle;
    await publishTermsVersion(db, {
      content: '<p>Older</p>',
      actorUserId: null,
      publishedAt: new Date('2026-01-05T10:00:00Z'),
    });
    await publishTermsVersion(db, {
      content: '<p>Newest</p>',
      actorUserId: null,
      publishedAt: new Date('2026-11-21T23:30:00Z'),
    });
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ content: '<p>Newest</p>', lastUpdated: '2026-11-21' });
  });

  it('stores content sanitised and records an audit event in the same transaction', async () => {
    const { db } = ctx.db.handle;
    const author = await createUser(db, { role: 'superadmin' });
    const version = await publishTermsVersion(db, {
      content: '<p onclick="steal()">Hello<script>alert(1)</script> <a href="javascript:alert(1)">x</a></p>',
      actorUserId: author.id,
      publishedAt: new Date('2030-01-01T00:00:00Z'),
    });
    expect(version.content).toBe('<p>Hello <a>x</a></p>');
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, String(version.id)));
    expect(event).toMatchObject({ action: 'terms.publish', actorUserId: author.id, subjectType: 'terms_version' });
    expect((await get()).json().content).toBe('<p>Hello <a>x</a></p>');
  });

  it('answers only GET', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/public/terms-and-conditions', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Not found.' });
  });
});
