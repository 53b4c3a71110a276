import { CR_DEFAULT_PRIVILEGE_LABEL, type CrSettingsInput } from '@portal/shared';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  chartReviewProject,
  chartReviewSnapshot,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
} from '../../../test/chart-review-kit.js';
import { addMember, createUser, setMainRole } from '../../../test/factories.js';
import { auditEvents, crSettings, users } from '../../db/schema/index.js';

const defaults: CrSettingsInput = {
  store_encounter_ref: false,
  reveal_roles: ['chart_review_admin'],
  retention_months: 24,
  default_irr_rate: 0.05,
  irr_kappa_min: 0.75,
  irr_agreement_min: 0.95,
  new_reviewer_match_min: 0.97,
  partial_enabled: false,
  privilege_label: CR_DEFAULT_PRIVILEGE_LABEL,
  coi_own_unit: true,
};

describe('chart review settings and people', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  const calls: GuardedCall[] = [
    { method: 'GET', path: '/settings', viewer: true, namesRow: false },
    { method: 'PUT', path: '/settings', body: { ...defaults, partial_enabled: true }, viewer: false, namesRow: false },
    { method: 'GET', path: '/people', viewer: true, namesRow: false },
  ];

  it('guards every call: 401, 403 without a role, 403 for the viewer on PUT, 404 elsewhere, 419 without XSRF', async () => {
    const s = await chartReviewProject(db());
    await expectGuards(ctx, s, calls);
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await chartReviewProject(db());
    await expectSwitchedOff(ctx, s, calls);
  });

  it('creates the settings with the defaults on first read; edit only for chart review admins', async () => {
    const s = await chartReviewProject(db());
    expect(await db().select().from(crSettings).where(eq(crSettings.projectId, s.project.id))).toEqual([]);
    const viewer = await ctx.signedIn(s.people.viewer);
    const first = await viewer.get(`${s.base}/settings`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ ...defaults, updated_by: null, abilities: { edit: false } });
    expect(await db().select().from(crSettings).where(eq(crSettings.projectId, s.project.id))).toHaveLength(1);
    // Reading again neither writes a second row nor an audit event.
    const before = await chartReviewSnapshot(db());
    expect((await viewer.get(`${s.base}/settings`)).json()).toEqual(first.json());
    expect(await chartReviewSnapshot(db())).toEqual(before);
    for (const [who, edit] of [
      ['lead', false],
      ['reviewer', false],
      ['admin', true],
      ['superadmin', true],
    ] as const) {
      const answer = await (await ctx.signedIn(s.people[who])).get(`${s.base}/settings`);
      expect(answer.json().abilities, who).toEqual({ edit });
    }
    // Only the project's own row was made.
    expect(await db().select().from(crSettings).where(eq(crSettings.projectId, s.other.id))).toEqual([]);
  });

  it('saves the settings for a chart review admin and a superadmin, audits the changes, refuses the lead', async () => {
    const s = await chartReviewProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const changed: CrSettingsInput = {
      ...defaults,
      store_encounter_ref: true,
      reveal_roles: ['program_lead', 'chart_review_admin', 'program_lead'],
      retention_months: 36,
      partial_enabled: true,
      privilege_label: '  Confidential peer review document.  ',
    };
    const saved = await admin.put(`${s.base}/settings`, changed);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      store_encounter_ref: true,
      reveal_roles: ['chart_review_admin', 'program_lead'],
      retention_months: 36,
      partial_enabled: true,
      privilege_label: 'Confidential peer review document.',
      updated_by: { id: s.people.admin.id, name: 'Ada Admin' },
      abilities: { edit: true },
    });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'chart_review.settings_updated',
      projectId: s.project.id,
      actorUserId: s.people.admin.id,
      subjectType: 'cr_settings',
      subjectId: String(s.project.id),
      data: {
        changes: {
          store_encounter_ref: { from: false, to: true },
          reveal_roles: { from: ['chart_review_admin'], to: ['chart_review_admin', 'program_lead'] },
          retention_months: { from: 24, to: 36 },
          partial_enabled: { from: false, to: true },
          privilege_label: { from: CR_DEFAULT_PRIVILEGE_LABEL, to: 'Confidential peer review document.' },
        },
      },
    });
    // Saving the same values again changes nothing and records nothing (signing in is audited: before the snapshot).
    const lead = await ctx.signedIn(s.people.lead);
    const before = await chartReviewSnapshot(db());
    expect((await admin.put(`${s.base}/settings`, changed)).statusCode).toBe(200);
    expect(await chartReviewSnapshot(db())).toEqual(before);

    const refused = await lead.put(`${s.base}/settings`, defaults);
    expect(refused.statusCode).toBe(403);
    expect(await chartReviewSnapshot(db())).toEqual(before);

    const superadmin = await ctx.signedIn(s.people.superadmin);
    const bySuper = await superadmin.put(`${s.base}/settings`, { ...changed, coi_own_unit: false });
    expect(bySuper.statusCode, bySuper.body).toBe(200);
    expect(bySuper.json()).toMatchObject({ coi_own_unit: false, updated_by: { id: s.people.superadmin.id } });
  });

  it('validates the settings with specific messages', async () => {
    const s = await chartReviewProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const before = await chartReviewSnapshot(db());
    const answer = await admin.put(`${s.base}/settings`, {
      ...defaults,
      reveal_roles: ['chart_review_admin', 'nobody'],
      retention_months: 0,
      default_irr_rate: 1.5,
      irr_kappa_min: -2,
      irr_agreement_min: 'high',
      privilege_label: '   ',
    });
    expect(answer.statusCode).toBe(400);
    const { errors } = answer.json();
    expect(errors['reveal_roles.1']).toHaveLength(1);
    expect(errors).toMatchObject({
      retention_months: ['Keep encounter references at least 1 month.'],
      default_irr_rate: ['The second-review share is from 0 to 1.'],
      irr_kappa_min: ['Kappa is from -1 to 1.'],
      irr_agreement_min: ['Enter the minimum agreement as a number.'],
      privilege_label: ['Enter the privilege label shown on every review page and export.'],
    });
    const tooLong = await admin.put(`${s.base}/settings`, { ...defaults, retention_months: 121 });
    expect(tooLong.json().errors.retention_months).toEqual(['Keep encounter references at most 120 months.']);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('lists the active members with a chart review role, by name, with their role', async () => {
    const s = await chartReviewProject(db());
    // A disabled member with a role, and someone with a role row but no membership, stay out.
    const disabled = await createUser(db(), { firstName: 'Dora', lastName: 'Disabled' });
    await addMember(db(), s.project.id, disabled.id, 'simple');
    await setMainRole(db(), s.project.id, disabled.id, 'chart_review', 'reviewer');
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));
    const stranger = await createUser(db(), { firstName: 'Stan', lastName: 'Stranger' });
    await setMainRole(db(), s.project.id, stranger.id, 'chart_review', 'reviewer');
    // A monitoring role alone does not count.
    const monitor = await createUser(db(), { firstName: 'Mo', lastName: 'Monitor' });
    await addMember(db(), s.project.id, monitor.id, 'simple');
    await setMainRole(db(), s.project.id, monitor.id, 'monitoring', 'viewer');

    const viewer = await ctx.signedIn(s.people.viewer);
    const answer = await viewer.get(`${s.base}/people`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      people: [
        { id: s.people.admin.id, name: 'Ada Admin', role: 'chart_review_admin' },
        { id: s.people.lead.id, name: 'Leo Lead', role: 'program_lead' },
        { id: s.people.reviewer.id, name: 'Rita Reviewer', role: 'reviewer' },
        { id: s.people.viewer.id, name: 'Vera Viewer', role: 'viewer' },
      ],
    });
    const theirs = await (await ctx.signedIn(s.people.outsider)).get(`${s.otherBase}/people`);
    expect(theirs.json()).toEqual({
      people: [{ id: s.people.outsider.id, name: 'Olga Outside', role: 'chart_review_admin' }],
    });
  });
});
