import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { policyProject, publishDraft } from '../../../test/policy-kit.js';
import { createAssessment, importFramework, setStandardsRole } from '../../../test/standards-kit.js';
import {
  auditEvents,
  pgFacilityProfiles,
  pgGenerations,
  pgTemplates,
  pgTemplateVersions,
  policyDocuments,
  policyVersions,
  projects,
  traceLinks,
} from '../../db/schema/index.js';
import { LIBRARY } from './library/index.js';

/** The policy generator's calls (docs/policy-generator.md) with the usual actors. */
describe('policy generator', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const APPS = ['policy_management', 'policy_generator', 'standards'];

  async function setup() {
    const s = await policyProject(db());
    await db().update(projects).set({ activeApps: APPS });
    const admin = await ctx.signedIn(s.people.admin);
    const author = await ctx.signedIn(s.people.author);
    const base = `/api/projects/${s.project.id}/policy-generator`;
    const department = (
      await admin.post(`/api/projects/${s.project.id}/policy-management/departments`, { name: 'Nursing', code: 'NUR' })
    ).json() as { id: number };
    return { ...s, admin, author, base, department };
  }

  type Setup = Awaited<ReturnType<typeof setup>>;

  /** A project template (copy of the library's first) published with one variable and one flag section. */
  async function projectTemplate(s: Setup, extra: { standards?: { framework: string; ref_id: string }[] } = {}) {
    const created = await s.admin.post(`${s.base}/templates`, { title: 'Visitor policy' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const body = {
      title: 'Visitor policy',
      category: 'Nursing',
      description: 'Who may visit and when.',
      requires_flags: [],
      sections: [
        { key: 'purpose', html: '<p>{{facility_name}} welcomes visitors from {{start|date}}.</p>' },
        {
          key: 'policy',
          html: '<p>Lead: {{lead}}.</p><p>{{#if has_ob}}</p><p>Two partners may stay in labour and delivery.</p><p>{{/if}}</p>',
        },
      ],
      variables: [
        { key: 'lead', label: 'Visitor lead', type: 'text', required: true, default: null, help: '', options: [] },
        { key: 'start', label: 'Start', type: 'date', required: false, default: null, help: '', options: [] },
      ],
      standards: extra.standards ?? [],
    };
    const saved = await s.admin.put(`${s.base}/templates/${id}/draft`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    const published = await s.admin.post(`${s.base}/templates/${id}/publish`, { note: '' });
    expect(published.statusCode, published.body).toBe(200);
    return { id, body, versionId: published.json().current.id as number };
  }

  const generate = (
    s: Setup,
    versionId: number,
    answers: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) =>
    s.author.post(`${s.base}/generate`, {
      template_version_id: versionId,
      answers,
      title: 'Visitors',
      department_id: s.department.id,
      number: null,
      owner_id: null,
      ...extra,
    });

  describe('access', () => {
    const calls = (base: string, templateId: number, versionId: number, documentId: number, body: unknown) =>
      [
        ['get', `${base}/profile`],
        ['put', `${base}/profile`, profileBody()],
        ['get', `${base}/lookups`],
        ['get', `${base}/templates`],
        ['get', `${base}/templates/${templateId}`],
        ['get', `${base}/templates/${templateId}/versions/${versionId}`],
        ['post', `${base}/templates`, { copy_of: templateId }],
        ['put', `${base}/templates/${templateId}/draft`, body],
        ['delete', `${base}/templates/${templateId}/draft`],
        ['post', `${base}/templates/${templateId}/publish`, { note: '' }],
        ['post', `${base}/preview`, { template_version_id: versionId, answers: {} }],
        [
          'post',
          `${base}/generate`,
          {
            template_version_id: versionId,
            answers: {},
            title: 'x',
            department_id: null,
            number: null,
            owner_id: null,
          },
        ],
        ['get', `${base}/generations`],
        ['get', `${base}/generations/${documentId}`],
        ['post', `${base}/documents/${documentId}/regenerate`, {}],
      ] as const;

    const snapshot = async () => ({
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
      profiles: await db().select().from(pgFacilityProfiles),
      templates: await db().select().from(pgTemplates),
      versions: await db().select().from(pgTemplateVersions),
      documents: await db().select().from(policyDocuments),
      generations: await db().select().from(pgGenerations),
    });

    it("answers 401 signed out and 404 to another project's member or with the generator off; nothing changes", async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const made = await generate(s, t.versionId, { lead: 'Ada' });
      expect(made.statusCode, made.body).toBe(201);
      const anonymous = await ctx.anonymous();
      const outsider = await ctx.signedIn(s.people.outsider);
      const before = await snapshot();
      for (const [method, url, body] of calls(s.base, t.id, t.versionId, made.json().document_id, t.body)) {
        const send = (a: typeof anonymous) =>
          method === 'get' || method === 'delete' ? a[method](url) : a[method](url, body);
        expect((await send(anonymous)).statusCode, `${method} ${url} signed out`).toBe(401);
        const answer = await send(outsider);
        expect(answer.statusCode, `${method} ${url} as an outsider`).toBe(404);
        expect(answer.json().message).toBe('Project not found.');
      }
      // The outsider's own project, with this project's ids: unknown there.
      const own = `/api/projects/${s.other.id}/policy-generator`;
      await db().update(projects).set({ activeApps: APPS });
      for (const url of [`${own}/templates/${t.id}`, `${own}/templates/${t.id}/versions/${t.versionId}`]) {
        expect((await outsider.get(url)).statusCode, url).toBe(404);
      }
      expect((await outsider.post(`${own}/templates`, { copy_of: t.id })).statusCode).toBe(404);
      expect((await outsider.post(`${own}/documents/${made.json().document_id}/regenerate`, {})).statusCode).toBe(404);
      expect((await outsider.put(`${own}/templates/${t.id}/draft`, t.body)).statusCode).toBe(404);
      expect(
        (await outsider.post(`${own}/preview`, { template_version_id: t.versionId, answers: {} })).statusCode,
      ).toBe(404);
      expect(await snapshot()).toEqual(before);

      await db()
        .update(projects)
        .set({ activeApps: ['policy_management'] })
        .where(eq(projects.id, s.project.id));
      const off = await s.admin.get(`${s.base}/templates`);
      expect(off.statusCode).toBe(404);
      expect(off.json().message).toBe('The policy generator is not switched on for this project.');
      expect((await s.admin.get(`${s.base}/profile`)).statusCode).toBe(404);
    });

    it('answers 403 by role: readers cannot generate, authors cannot edit templates, members cannot edit the profile', async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const reader = await ctx.signedIn(s.people.reader);
      const noRole = await ctx.signedIn(s.people.noRole);
      const before = await snapshot();
      const forbidden = 'Your role is not permitted to access this section.';
      for (const [method, url, body] of calls(s.base, t.id, t.versionId, 999999, t.body)) {
        if (url.endsWith('/profile')) continue;
        const send = (a: typeof reader) =>
          method === 'get' || method === 'delete' ? a[method](url) : a[method](url, body);
        const r = await send(reader);
        expect(r.statusCode, `${method} ${url} as a reader`).toBe(403);
        expect(r.json().message).toBe(forbidden);
        expect((await send(noRole)).statusCode, `${method} ${url} without a role`).toBe(403);
      }
      for (const [method, url, body] of [
        ['post', `${s.base}/templates`, { copy_of: t.id }],
        ['put', `${s.base}/templates/${t.id}/draft`, t.body],
        ['post', `${s.base}/templates/${t.id}/publish`, { note: 'x' }],
        ['delete', `${s.base}/templates/${t.id}/draft`],
      ] as const) {
        const r = method === 'delete' ? await s.author.delete(url) : await s.author[method](url, body);
        expect(r.statusCode, `${method} ${url} as an author`).toBe(403);
      }
      // Any member reads the profile; only project admins change it.
      expect((await reader.get(`${s.base}/profile`)).json().can_edit).toBe(false);
      const put = await s.author.put(`${s.base}/profile`, profileBody());
      expect(put.statusCode).toBe(403);
      expect(put.json().message).toBe('Only project administrators can change the facility profile.');
      expect(await snapshot()).toEqual(before);
    });

    it('lets a superadmin who is not a member in, like every app', async () => {
      const s = await setup();
      const root = await createUser(db(), { firstName: 'Sam', lastName: 'Super', role: 'superadmin' });
      const superadmin = await ctx.signedIn(root);
      expect((await superadmin.get(`${s.base}/templates`)).json().can_edit).toBe(true);
      const saved = await superadmin.put(`${s.base}/profile`, profileBody());
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().can_edit).toBe(true);
    });

    it('refuses a state change without the XSRF header', async () => {
      const s = await setup();
      const bare = await s.admin.request({
        method: 'PUT',
        url: `${s.base}/profile`,
        payload: profileBody(),
        headers: { 'x-xsrf-token': '' },
      });
      expect(bare.statusCode).toBe(419);
      expect(
        await db().select().from(pgFacilityProfiles).where(eq(pgFacilityProfiles.projectId, s.project.id)),
      ).toEqual([]);
    });
  });

  function profileBody(overrides: Record<string, unknown> = {}) {
    return {
      legal_name: 'North Clinic Hospital, Inc.',
      short_name: 'North Clinic',
      address: '1 Main Street, Springfield, OH 45501',
      state: 'OH',
      bed_count: 120,
      service_lines: ['ob', 'ed'],
      accreditors: ['tjc'],
      owner_titles: { cno: 'Chief Nursing Officer', infection_prevention: 'Infection Preventionist' },
      default_review_interval_months: 24,
      ...overrides,
    };
  }

  describe('facility profile', () => {
    it('suggests the project name until saved, then keeps what a project admin saves (audited)', async () => {
      const s = await setup();
      const first = (await s.author.get(`${s.base}/profile`)).json();
      expect(first).toMatchObject({ saved: false, legal_name: 'North Clinic', can_edit: false, bed_count: null });
      expect(first.missing).toEqual(expect.arrayContaining(['facility_address', 'title_cno']));
      const saved = await s.admin.put(`${s.base}/profile`, profileBody());
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ saved: true, can_edit: true, state: 'OH', updated_by: 'Ada Admin' });
      expect(saved.json().missing).toContain('title_ceo');
      expect(saved.json().missing).not.toContain('title_cno');
      const events = await db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'policy_generator.profile_saved'), eq(auditEvents.projectId, s.project.id)));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actorUserId: s.people.admin.id, subjectType: 'facility_profile' });
      expect(events[0]!.data).toMatchObject({ legal_name: 'North Clinic Hospital, Inc.', bed_count: 120 });
    });

    it('validates every field', async () => {
      const s = await setup();
      const bad = await s.admin.put(
        `${s.base}/profile`,
        profileBody({
          legal_name: ' ',
          state: 'XX',
          bed_count: -1,
          service_lines: ['spa'],
          default_review_interval_months: 0,
        }),
      );
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().errors)).toEqual(
        expect.arrayContaining([
          'legal_name',
          'state',
          'bed_count',
          'service_lines.0',
          'default_review_interval_months',
        ]),
      );
      expect(
        await db().select().from(pgFacilityProfiles).where(eq(pgFacilityProfiles.projectId, s.project.id)),
      ).toEqual([]);
    });
  });

  describe('templates', () => {
    it('lists the library (at least 12, each with standards) for everyone who may generate', async () => {
      const s = await setup();
      await s.admin.put(`${s.base}/profile`, profileBody({ service_lines: [] }));
      const list = await s.author.get(`${s.base}/templates`);
      expect(list.statusCode, list.body).toBe(200);
      const templates = list.json().templates as {
        code: string;
        scope: string;
        standards: unknown[];
        requires_flags: string[];
        fits_profile: boolean;
        published: { version: number };
      }[];
      expect(templates.filter((t) => t.scope === 'global')).toHaveLength(LIBRARY.length);
      expect(LIBRARY.length).toBeGreaterThanOrEqual(12);
      for (const t of templates) {
        expect(t.standards.length, t.code).toBeGreaterThan(0);
        expect(t.published.version).toBe(1);
        expect(t.fits_profile, t.code).toBe(t.requires_flags.length === 0);
      }
      expect(list.json().can_edit).toBe(false);
      expect((await s.admin.get(`${s.base}/templates`)).json().can_edit).toBe(true);
    });

    it('keeps the library read-only: a project copies it once, then edits, publishes and discards its copy', async () => {
      const s = await setup();
      const library = (await s.admin.get(`${s.base}/templates`)).json().templates[0] as { id: number; title: string };
      const readOnly = await s.admin.put(`${s.base}/templates/${library.id}/draft`, LIBRARY[0]!.body);
      expect(readOnly.statusCode).toBe(409);
      expect(readOnly.json().message).toBe(
        "The library's templates are read-only: copy one to this project to change it.",
      );
      const copy = await s.admin.post(`${s.base}/templates`, { copy_of: library.id });
      expect(copy.statusCode, copy.body).toBe(201);
      expect(copy.json()).toMatchObject({
        scope: 'project',
        derived_from: { id: library.id },
        published: null,
        draft: { version: 1 },
      });
      const again = await s.admin.post(`${s.base}/templates`, { copy_of: library.id });
      expect(again.statusCode).toBe(409);
      // The author does not see a template that was never published.
      const authorList = (await s.author.get(`${s.base}/templates`)).json().templates as { id: number }[];
      expect(authorList.map((t) => t.id)).not.toContain(copy.json().id);
      expect((await s.author.get(`${s.base}/templates/${copy.json().id}`)).statusCode).toBe(404);

      const id = copy.json().id as number;
      const body = copy.json().working.body;
      const v1 = await s.admin.post(`${s.base}/templates/${id}/publish`, { note: '' });
      expect(v1.statusCode, v1.body).toBe(200);
      expect(v1.json().current).toMatchObject({ version: 1, status: 'published', note: 'First version.' });
      const edited = await s.admin.put(`${s.base}/templates/${id}/draft`, { ...body, title: 'Hand hygiene at North' });
      expect(edited.json().working).toMatchObject({ version: 2, status: 'draft' });
      const noNote = await s.admin.post(`${s.base}/templates/${id}/publish`, { note: '' });
      expect(noNote.statusCode).toBe(400);
      expect(noNote.json().errors.note).toEqual(['Say what changed since the last version.']);
      const v2 = await s.admin.post(`${s.base}/templates/${id}/publish`, { note: 'Our own title.' });
      expect(v2.json()).toMatchObject({ title: 'Hand hygiene at North', current: { version: 2 } });
      expect(v2.json().versions.map((v: { status: string }) => v.status)).toEqual(['published', 'retired']);
      await s.admin.put(`${s.base}/templates/${id}/draft`, { ...body, title: 'Scrapped' });
      expect((await s.admin.delete(`${s.base}/templates/${id}/draft`)).statusCode).toBe(204);
      expect((await s.admin.get(`${s.base}/templates/${id}`)).json()).toMatchObject({
        title: 'Hand hygiene at North',
        working: null,
      });
      expect((await s.admin.delete(`${s.base}/templates/${id}/draft`)).statusCode).toBe(409);

      // A blank template never published goes away with its draft.
      const blank = (await s.admin.post(`${s.base}/templates`, { title: 'Blank' })).json();
      expect((await s.admin.delete(`${s.base}/templates/${blank.id}/draft`)).statusCode).toBe(204);
      expect((await s.admin.get(`${s.base}/templates/${blank.id}`)).statusCode).toBe(404);
      const actions = (await db().select({ a: auditEvents.action }).from(auditEvents)).map((r) => r.a);
      expect(actions).toEqual(
        expect.arrayContaining([
          'policy_generator.template_created',
          'policy_generator.template_draft_saved',
          'policy_generator.template_published',
          'policy_generator.template_draft_discarded',
          'policy_generator.template_deleted',
        ]),
      );
    });

    it('refuses broken syntax and unknown names on the field, and sanitises section HTML', async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const broken = await s.admin.put(`${s.base}/templates/${t.id}/draft`, {
        ...t.body,
        sections: [{ key: 'purpose', html: '<p>{{#if has_ob}}Open</p>' }],
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().errors['sections.0.html']).toEqual([
        '{{#if has_ob}} must close inside the same paragraph or list item it opens in.',
      ]);
      const unknown = await s.admin.put(`${s.base}/templates/${t.id}/draft`, {
        ...t.body,
        sections: [{ key: 'purpose', html: '<p>{{nobody}}</p>' }],
      });
      expect(unknown.json().errors['sections.0.html']).toEqual(['{{nobody}} is not a variable of this template.']);
      const script = await s.admin.put(`${s.base}/templates/${t.id}/draft`, {
        ...t.body,
        sections: [{ key: 'purpose', html: '<p onclick="x()">Hi {{lead}}</p><script>alert(1)</script>' }],
      });
      expect(script.statusCode, script.body).toBe(200);
      expect(script.json().working.body.sections).toEqual([{ key: 'purpose', html: '<p>Hi {{lead}}</p>' }]);
    });
  });

  describe('preview and generate', () => {
    it('previews with unresolved placeholders marked and answers kept as text', async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const preview = await s.author.post(`${s.base}/preview`, {
        template_version_id: t.versionId,
        answers: { lead: '<img src=x onerror=alert(1)>' },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const out = preview.json();
      expect(out.html).toContain('Lead: &lt;img src=x onerror=alert(1)&gt;.');
      expect(out.html).not.toContain('<img');
      expect(out.html).not.toContain('labour and delivery'); // has_ob is off until the profile says so
      expect(out.missing_required).toEqual([]);
      expect(out.unresolved).toEqual([]);
      const empty = (
        await s.author.post(`${s.base}/preview`, { template_version_id: t.versionId, answers: { start: '2026-02-30' } })
      ).json();
      expect(empty.missing_required).toEqual(['lead']);
      expect(empty.unresolved).toEqual(['start', 'lead']); // a wrong answer is not inserted
      expect(empty.errors).toEqual({ start: 'Start is a date (YYYY-MM-DD).' });
      expect(empty.html).toContain('<mark class="pg-unresolved"><code>{{lead}}</code></mark>');
      await s.admin.put(`${s.base}/profile`, profileBody());
      const ob = (
        await s.author.post(`${s.base}/preview`, { template_version_id: t.versionId, answers: { lead: 'Ada' } })
      ).json();
      expect(ob.html).toContain('Two partners may stay in labour and delivery.');
      expect(ob.html).toContain('North Clinic Hospital, Inc. welcomes visitors');
    });

    it('generates a draft with provenance; unresolved fields block send to review until filled in', async () => {
      const s = await setup();
      await s.admin.put(`${s.base}/profile`, profileBody());
      const t = await projectTemplate(s);
      const bad = await generate(s, t.versionId, { lead: 42 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors['answers.lead']).toEqual(['Visitor lead is text.']);
      const taken = await generate(s, t.versionId, {}, { number: '7' });
      expect(taken.statusCode, taken.body).toBe(201);
      const dup = await generate(s, t.versionId, {}, { number: '7' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().errors.number[0]).toContain('already used');

      const made = taken.json();
      expect(made).toMatchObject({ unresolved: ['lead'], links_added: 0, links_unmatched: [] });
      const doc = (
        await s.author.get(`/api/projects/${s.project.id}/policy-management/documents/${made.document_id}`)
      ).json();
      expect(doc).toMatchObject({ title: 'Visitors', number: '7', status: 'draft', review_interval_months: 24 });
      // The policy page names the template version it came from.
      expect(doc.generated_from).toMatchObject({
        template_id: t.id,
        template_title: 'Visitor policy',
        template_version: 1,
      });
      const [version] = await db().select().from(policyVersions).where(eq(policyVersions.documentId, made.document_id));
      expect(version!.content).toContain('<h2>Purpose</h2><p>North Clinic Hospital, Inc. welcomes visitors from .</p>');
      expect(version!.content).toContain('Lead: {{lead}}.');
      expect(version!.changeSummary).toBe('Generated from the template "Visitor policy" version 1.');
      const [generation] = await db()
        .select()
        .from(pgGenerations)
        .where(eq(pgGenerations.documentId, made.document_id));
      expect(generation).toMatchObject({
        templateId: t.id,
        templateVersionId: t.versionId,
        unresolved: ['lead'],
        kind: 'generate',
      });
      expect(generation!.profile).toMatchObject({ facility_name: 'North Clinic Hospital, Inc.', has_ob: true });

      const flow = `/api/projects/${s.project.id}/policy-management/documents/${made.document_id}`;
      const blocked = await s.author.post(`${flow}/send-to-review`, {});
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().message).toBe(
        'Fill in the template fields still marked in the text before sending it for review: {{lead}}.',
      );
      const saved = await s.author.put(`${flow}/draft`, {
        content: version!.content.replace('{{lead}}', 'Ada Admin'),
        change_summary: '',
        base_revision: 0,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const problems = (await s.author.get(`${flow}/workflow`)).json().problems as { kind: string }[];
      expect(problems.some((p) => p.kind === 'template_fields')).toBe(false);
    });

    it("numbers a generated policy in its department's chapter, and only without a department at the top level", async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const pm = `/api/projects/${s.project.id}/policy-management`;
      const pharmacy = (await s.admin.post(`${pm}/departments`, { name: 'Pharmacy', code: 'PHA' })).json() as {
        id: number;
      };
      // Chapter 1 is Pharmacy's, 2 has no department, 3 is Nursing's (s.department) with 3.1 and 3.2.
      const existing: [string, number | null][] = [
        ['1', pharmacy.id],
        ['1.1', pharmacy.id],
        ['2', null],
        ['3', s.department.id],
        ['3.1', s.department.id],
        ['3.2', s.department.id],
      ];
      for (const [number, departmentId] of existing) {
        const made = await s.admin.post(`${pm}/documents`, {
          title: `Policy ${number}`,
          number,
          department_id: departmentId,
        });
        expect(made.statusCode, made.body).toBe(201);
      }
      const numberOf = async (id: number) =>
        (
          await db().select({ number: policyDocuments.number }).from(policyDocuments).where(eq(policyDocuments.id, id))
        )[0]!.number;

      // The wizard proposes the same numbers the server gives.
      const lookups = (await s.author.get(`${s.base}/lookups`)).json() as {
        departments: { id: number; next_number: string }[];
        next_number: string;
      };
      expect(lookups.departments.map((d) => [d.id, d.next_number])).toEqual(
        expect.arrayContaining([
          [s.department.id, '3.3'],
          [pharmacy.id, '1.2'],
        ]),
      );
      expect(lookups.next_number).toBe('4');

      const first = await generate(s, t.versionId, { lead: 'Ada' });
      expect(first.statusCode, first.body).toBe(201);
      expect(await numberOf(first.json().document_id)).toBe('3.3');
      const second = await generate(s, t.versionId, { lead: 'Ada' });
      expect(await numberOf(second.json().document_id)).toBe('3.4');
      const loose = await generate(s, t.versionId, { lead: 'Ada' }, { department_id: null });
      expect(loose.statusCode, loose.body).toBe(201);
      expect(await numberOf(loose.json().document_id)).toBe('4');
      // A number the author chose is kept.
      const chosen = await generate(s, t.versionId, { lead: 'Ada' }, { number: '3.10' });
      expect(await numberOf(chosen.json().document_id)).toBe('3.10');
    });

    it('refuses a retired version and a draft template, and links the draft to the standards the project assesses', async () => {
      const s = await setup();
      await setStandardsRole(db(), s.project.id, s.people.admin.id, 'standards_admin');
      const std = `/api/projects/${s.project.id}/standards`;
      const { framework } = await importFramework(db(), s.admin, std);
      await createAssessment(db(), s.admin, std, framework.id);
      const t = await projectTemplate(s, {
        standards: [
          { framework: 'STATE-QS', ref_id: 'IC.1.1' },
          { framework: 'STATE-QS', ref_id: 'GOV.1' },
          { framework: 'CMS-482', ref_id: '§482.13(h)' },
        ],
      });
      expect((await s.author.get(`${s.base}/templates/${t.id}`)).json().current_standards).toMatchObject([
        { framework: 'STATE-QS', ref_id: 'IC.1.1', title: 'Hand hygiene audits', assessed: true },
        { framework: 'STATE-QS', ref_id: 'GOV.1', title: 'Governing body', assessed: true },
        { framework: 'CMS-482', ref_id: '§482.13(h)', assessed: false },
      ]);
      // The preview's coverage: titles from the project's framework, assessed or not, cited in the text or not.
      const preview = await s.author.post(`${s.base}/preview`, {
        template_version_id: t.versionId,
        answers: { lead: 'Ada' },
        overrides: { purpose: '<p>Meets IC.1.1 of the state rules (not IC.1.10).</p>' },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().standards).toMatchObject([
        { framework: 'STATE-QS', ref_id: 'IC.1.1', title: 'Hand hygiene audits', assessed: true, cited: true },
        { framework: 'STATE-QS', ref_id: 'GOV.1', title: 'Governing body', assessed: true, cited: false },
        { framework: 'CMS-482', ref_id: '§482.13(h)', assessed: false, cited: false },
      ]);
      const made = await generate(s, t.versionId, { lead: 'Ada' });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ links_added: 2, links_unmatched: ['CMS-482 §482.13(h)'] });
      const links = await db().select().from(traceLinks).where(eq(traceLinks.targetId, made.json().document_id));
      expect(links.map((l) => l.note)).toEqual([
        'Suggested by the policy generator ("Visitor policy" version 1).',
        'Suggested by the policy generator ("Visitor policy" version 1).',
      ]);
      await s.admin.put(`${s.base}/templates/${t.id}/draft`, t.body);
      await s.admin.post(`${s.base}/templates/${t.id}/publish`, { note: 'Same again.' });
      const old = await generate(s, t.versionId, { lead: 'Ada' });
      expect(old.statusCode).toBe(409);
      expect(old.json().message).toBe(
        'A newer version of this template was published meanwhile. Reload the template to use it.',
      );
      await s.admin.put(`${s.base}/templates/${t.id}/draft`, t.body);
      const draftId = (await s.admin.get(`${s.base}/templates/${t.id}`)).json().working.id as number;
      const asDraft = await s.admin.post(`${s.base}/generate`, {
        template_version_id: draftId,
        answers: {},
        title: 'x',
        department_id: null,
        number: null,
        owner_id: null,
      });
      expect(asDraft.statusCode).toBe(409);
      expect((await generate(s, draftId, {})).statusCode).toBe(404); // authors never see drafts
    });
  });

  describe('regenerate', () => {
    it('brings a generated policy to a newer template version as a draft with a redline, never over edits', async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const made = (await generate(s, t.versionId, { lead: 'Ada' })).json();
      const listed = (await s.author.get(`${s.base}/generations`)).json().generations;
      expect(listed).toMatchObject([
        { document: { id: made.document_id }, version: 1, latest_version: 1, update_available: false },
      ]);
      const same = await s.author.post(`${s.base}/documents/${made.document_id}/regenerate`, {});
      expect(same.statusCode).toBe(200); // same version over an untouched draft: harmless

      const newer = {
        ...t.body,
        sections: [{ key: 'purpose', html: '<p>{{facility_name}} welcomes visitors every day.</p>' }],
      };
      await s.admin.put(`${s.base}/templates/${t.id}/draft`, newer);
      await s.admin.post(`${s.base}/templates/${t.id}/publish`, { note: 'Daily visits.' });
      expect((await s.author.get(`${s.base}/generations`)).json().generations[0]).toMatchObject({
        latest_version: 2,
        update_available: true,
      });

      await publishDraft(db(), made.document_id);
      const regen = await s.author.post(`${s.base}/documents/${made.document_id}/regenerate`, {});
      expect(regen.statusCode, regen.body).toBe(200);
      expect(regen.json()).toMatchObject({ version: 2, unresolved: [] });
      expect(regen.json().redline.html).toContain('<ins');
      expect(regen.json().redline.html).toContain('<del');
      expect(regen.json().redline.deletions).toBeGreaterThan(0);
      const [doc] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, made.document_id));
      const [draft] = await db().select().from(policyVersions).where(eq(policyVersions.id, doc!.draftVersionId!));
      expect(draft).toMatchObject({
        version: 2,
        state: 'draft',
        changeSummary: 'Regenerated from the template "Visitor policy" version 2.',
      });
      expect(draft!.content).toBe('<h2>Purpose</h2><p>North Clinic welcomes visitors every day.</p>');
      const page = `/api/projects/${s.project.id}/policy-management/documents/${made.document_id}`;
      expect((await s.author.get(page)).json().generated_from).toMatchObject({ template_version: 2 });
      expect((await s.author.get(`${s.base}/generations`)).json().generations[0]).toMatchObject({
        kind: 'regenerate',
        version: 2,
        update_available: false,
      });

      const flow = `/api/projects/${s.project.id}/policy-management/documents/${made.document_id}`;
      await s.author.put(`${flow}/draft`, {
        content: '<p>My own words</p>',
        change_summary: '',
        base_revision: draft!.revision,
      });
      const overEdits = await s.author.post(`${s.base}/documents/${made.document_id}/regenerate`, {});
      expect(overEdits.statusCode).toBe(409);
      expect(overEdits.json().message).toContain('was edited after it was generated');

      const foreign = await s.author.post(`${s.base}/documents/${made.document_id}/regenerate`, {
        template_version_id: 999999,
      });
      expect(foreign.statusCode).toBe(404);
      const plainDoc = (
        await s.author.post(`/api/projects/${s.project.id}/policy-management/documents`, { title: 'Handwritten' })
      ).json();
      const plainPage = `/api/projects/${s.project.id}/policy-management/documents/${plainDoc.id}`;
      expect((await s.author.get(plainPage)).json().generated_from).toBeNull();
      const notGenerated = await s.author.post(`${s.base}/documents/${plainDoc.id}/regenerate`, {});
      expect(notGenerated.statusCode).toBe(404);
      expect(notGenerated.json().message).toBe('This policy was not made by the policy generator.');
    });
  });

  describe('writing assistant when not configured', () => {
    it('says it is off, and answers 404 to its calls', async () => {
      const s = await setup();
      const t = await projectTemplate(s);
      const status = await s.author.get(`${s.base}/assist`);
      expect(status.statusCode).toBe(200);
      expect(status.json()).toEqual({ enabled: false, model: null, actions: [] });
      const refine = await s.author.post(`${s.base}/assist/refine`, {
        template_version_id: t.versionId,
        section_key: 'purpose',
        html: '<p>x</p>',
        action: 'clearer',
      });
      expect(refine.statusCode).toBe(404);
      expect((await s.author.post(`${s.base}/assist/calls/1/decision`, { accepted: true })).statusCode).toBe(404);
    });
  });
});
