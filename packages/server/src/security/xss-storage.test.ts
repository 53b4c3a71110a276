/**
 * The XSS corpus (test/xss-corpus.ts, 500+ payloads) stored through every rich-text entry point over the real API;
 * what is stored and returned is parsed as a browser would (jsdom) and must hold no executable markup.
 *
 * Rich-text entry points (every call that stores or returns HTML run through `sanitizeHtml`):
 * - terms: PUT /super/terms/draft, POST /super/terms/publish; read back by GET /super/terms/{id} and
 *   GET /api/public/terms-and-conditions
 * - the superadmin's editor check: POST /super/sanitize
 * - policy documents: POST .../policy-management/documents (content) and PUT .../documents/{id}/draft; read back by
 *   GET .../documents/{id}
 * - monitoring pages: POST .../monitoring/pages and PUT .../pages/{id} (introduction, benchmarks,
 *   parameters_and_metrics); the programme introduction PUT .../monitoring/introduction; read back by GET
 * - monitoring key insights: POST .../pages/{id}/insights and PUT .../insights/{id} (body); read back by GET
 * - policy generator templates: PUT .../policy-generator/templates/{id}/draft (sections), then the rendered preview
 *   POST .../policy-generator/preview with the payloads as variable answers and as section overrides
 * Not covered here: the Word import (POST .../documents/import: mammoth makes the HTML from a .docx, then the same
 * sanitizeHtml runs), the assistant's suggestions and AI insight drafts (text from a model provider, off in tests;
 * same sanitizeHtml), and comparisons/redlines (built from stored, already sanitised versions, sanitised again).
 *
 * Comments are plain text, not rich text: policy workflow comments (send to review, withdraw) and standards
 * element comments are stored verbatim and rendered by React as text. For them this file checks that the API keeps
 * the text exactly (nothing turned into markup, JSON answers); e2e/xss.spec.ts checks they render as inert text.
 */
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createUser } from '../../test/factories.js';
import { insertPage, monitoringProject } from '../../test/monitoring-kit.js';
import { standardsSetup } from '../../test/standards-kit.js';
import { workflowProject } from '../../test/workflow-kit.js';
import { XSS_CORPUS, type XssPayload, xssBatches, xssBlock } from '../../test/xss-corpus.js';
import { projects } from '../db/schema/index.js';

const BATCH = 100;
const batches = xssBatches(BATCH);
// NUL is refused by the API's body check (400) and cannot be stored in PostgreSQL text; documents carry U+FFFD in its
// place (what an HTML parser makes of it). The NUL payloads themselves are sent raw to POST /super/sanitize below.
const documentOf = (batch: XssPayload[]) => withoutNul(batch.map(xssBlock).join('\n'));

const { window } = new JSDOM('<!doctype html><html><body></body></html>');
const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'meta',
  'style',
  'form',
  'portal',
  'noscript',
  'handler',
  'listener',
]);
const ANIMATIONS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'discard']);
const URL_ATTRIBUTES = new Set([
  'href',
  'xlink:href',
  'src',
  'action',
  'formaction',
  'poster',
  'cite',
  'background',
  'data',
  'codebase',
  'dynsrc',
  'lowsrc',
  'ping',
  'longdesc',
  'manifest',
]);
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:', 'blob:']);

/** The protocol a browser would give this attribute value (WHATWG URL parsing, relative to the portal). */
function protocolOf(value: string): string {
  try {
    return new URL(value, 'https://portal.test/app/').protocol;
  } catch {
    return 'invalid:';
  }
}

/**
 * What in this HTML could run script, load a document or navigate, once a browser parses it into a page: forbidden
 * elements, event-handler attributes, srcdoc and form actions, URL attributes with a protocol other than http(s),
 * mailto, tel or blob, script in style attributes, and SVG animations that rewrite links. Template contents count.
 */
export function executableMarkup(html: string): string[] {
  const problems: string[] = [];
  const holder = window.document.createElement('template');
  holder.innerHTML = html;
  const walk = (root: ParentNode) => {
    for (const el of root.querySelectorAll('*')) {
      const name = el.localName.toLowerCase();
      if (FORBIDDEN_ELEMENTS.has(name)) problems.push(`<${name}>`);
      if (ANIMATIONS.has(name)) {
        const target = `${el.getAttribute('attributeName') ?? el.getAttribute('attributename') ?? ''}`;
        if (/href/i.test(target) || el.hasAttribute('onbegin')) problems.push(`<${name} attributeName=${target}>`);
      }
      for (const attr of Array.from(el.attributes)) {
        const attrName = attr.name.toLowerCase();
        if (attrName.startsWith('on')) problems.push(`${name}[${attrName}]`);
        if (attrName === 'srcdoc' || attrName === 'formaction' || attrName === 'action') {
          problems.push(`${name}[${attrName}]`);
        }
        if (URL_ATTRIBUTES.has(attrName) && !SAFE_PROTOCOLS.has(protocolOf(attr.value))) {
          problems.push(`${name}[${attrName}=${attr.value.slice(0, 40)}]`);
        }
        if (attrName === 'srcset') {
          for (const candidate of attr.value.split(',')) {
            const url = candidate.trim().split(/\s+/)[0] ?? '';
            if (url && !SAFE_PROTOCOLS.has(protocolOf(url))) problems.push(`${name}[srcset=${url.slice(0, 40)}]`);
          }
        }
        if (
          attrName === 'style' &&
          /expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:|url\s*\(\s*['"]?\s*data:/i.test(attr.value)
        ) {
          problems.push(`${name}[style=${attr.value.slice(0, 40)}]`);
        }
        if (['values', 'to', 'from', 'by'].includes(attrName) && /(?:java|vb)script:|data:/i.test(attr.value)) {
          problems.push(`${name}[${attrName}=${attr.value.slice(0, 40)}]`);
        }
      }
      if (el instanceof window.HTMLTemplateElement) walk(el.content);
    }
  };
  walk(holder.content);
  // Parsed again from its own serialisation (what a second render or an editor round trip does): no mutation.
  if (problems.length === 0) {
    const again = window.document.createElement('template');
    again.innerHTML = holder.innerHTML;
    if (again.innerHTML !== holder.innerHTML) {
      const reparsed = again.innerHTML;
      if (reparsed !== html) {
        const second = window.document.createElement('template');
        second.innerHTML = reparsed;
        walk(second.content);
      }
    }
  }
  return problems;
}

/**
 * Fails when the stored form still holds executable markup, and checks the text was stored rather than dropped whole
 * (the first payload's label survives; later ones may be swallowed by raw-text payloads such as <plaintext>).
 */
function expectInert(where: string, stored: string, batch: XssPayload[]) {
  const problems = executableMarkup(stored);
  expect(problems, `${where}: executable markup stored`).toEqual([]);
  expect(stored, `${where}: label of payload ${batch[0]!.id}`).toContain(`payload ${batch[0]!.id}`);
}

describe('XSS corpus through every rich-text entry point', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('has at least 500 distinct payloads, and the checker finds executable markup in them before sanitising', () => {
    expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(500);
    expect(new Set(XSS_CORPUS.map((p) => p.html)).size).toBe(XSS_CORPUS.length);
    // The checker is not blind: almost every raw payload is caught by it (the rest are text-only template strings,
    // breakouts with no markup of their own and external http loads, which are allowed content).
    const caught = XSS_CORPUS.filter((p) => executableMarkup(p.html).length > 0).length;
    expect(caught).toBeGreaterThan(XSS_CORPUS.length * 0.85);
    expect(executableMarkup('<p>fine <a href="https://example.com">link</a> <img src="/files/1"></p>')).toEqual([]);
    expect(executableMarkup('<a href="java&#x09;script:x()">x</a>')).not.toEqual([]);
    expect(executableMarkup('<template><img src=x onerror=x()></template>')).not.toEqual([]);
  });

  it('the superadmin editor check (POST /super/sanitize) returns inert HTML', async () => {
    const agent = await ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
    for (const [i, batch] of batches.entries()) {
      const answer = await agent.post('/super/sanitize', { html: documentOf(batch) });
      expect(answer.statusCode, answer.body).toBe(200);
      expectInert(`sanitize batch ${i}`, answer.json().html, batch);
    }
    // With their NUL characters: refused as a whole (400), or sanitised inert.
    for (const p of XSS_CORPUS.filter((x) => x.html.includes('\u0000'))) {
      const answer = await agent.post('/super/sanitize', { html: xssBlock(p) });
      if (answer.statusCode === 400) continue;
      expect(answer.statusCode, answer.body).toBe(200);
      expectInert(`sanitize payload ${p.id} with NUL`, answer.json().html, [p]);
    }
  });

  it('policy documents: created with content and saved as drafts, stored and read back inert', async () => {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    for (const [i, batch] of batches.entries()) {
      const created = await admin.post(`${base}/documents`, { title: `XSS ${i}`, content: documentOf(batch) });
      expect(created.statusCode, created.body).toBe(201);
      const doc = created.json() as { id: number; draft_version: { revision: number; content: string } };
      expectInert(`document ${i} created`, doc.draft_version.content, batch);
      // The next batch saved over it as a draft.
      const next = batches[(i + 1) % batches.length]!;
      const saved = await admin.put(`${base}/documents/${doc.id}/draft`, {
        content: documentOf(next),
        change_summary: 'payloads',
        base_revision: doc.draft_version.revision,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const read = (await admin.get(`${base}/documents/${doc.id}`)).json();
      expectInert(`document ${i} draft`, read.draft_version.content, next);
    }
  });

  it('policy workflow comments are plain text kept exactly as typed', async () => {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const author = await ctx.signedIn(s.people.author);
    const created = await author.post(`${base}/documents`, {
      title: 'Comments',
      department_id: s.nursing.id,
      content: '<p>Text.</p>',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    // Comments are at most 2,000 characters: the corpus in pieces, sent with the draft and taken back with it.
    const pieces = chunks(XSS_CORPUS, 1900);
    for (let i = 0; i < pieces.length; i += 2) {
      const sent = await author.post(`${base}/documents/${id}/send-to-review`, { comment: pieces[i]!.text });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.headers['content-type']).toMatch(/^application\/json/);
      const back = pieces[i + 1] ?? pieces[0]!;
      const withdrawn = await author.post(`${base}/documents/${id}/withdraw`, { comment: back.text });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    }
    const flow = JSON.stringify((await author.get(`${base}/documents/${id}/workflow`)).json());
    // The last comments are in the workflow's history exactly as typed (JSON escapes them; nothing became markup).
    expect(flow).toContain(JSON.stringify(pieces.at(-1)!.text).slice(1, -1));
  });

  it('monitoring pages (introduction, benchmarks, parameters) and the programme introduction are stored inert', async () => {
    const s = await monitoringProject(db());
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    for (let i = 0; i < batches.length; i += 3) {
      const [a, b, c] = [batches[i]!, batches[i + 1] ?? batches[0]!, batches[i + 2] ?? batches[1]!];
      const created = await admin.post(`${base}/pages`, {
        title: `XSS ${i}`,
        introduction: documentOf(a),
        benchmarks: documentOf(b),
        parameters_and_metrics: documentOf(c),
      });
      expect(created.statusCode, created.body).toBe(201);
      const page = (await admin.get(`${base}/pages/${created.json().id}`)).json();
      expectInert(`page ${i} introduction`, page.introduction, a);
      expectInert(`page ${i} benchmarks`, page.benchmarks, b);
      expectInert(`page ${i} parameters`, page.parameters_and_metrics, c);
      // Updated in place with the batches rotated.
      const updated = await admin.put(`${base}/pages/${page.id}`, {
        version: page.version,
        introduction: documentOf(c),
        benchmarks: documentOf(a),
        parameters_and_metrics: documentOf(b),
      });
      expect(updated.statusCode, updated.body).toBe(200);
      const again = (await admin.get(`${base}/pages/${page.id}`)).json();
      expectInert(`page ${i} introduction updated`, again.introduction, c);
      expectInert(`page ${i} benchmarks updated`, again.benchmarks, a);
      expectInert(`page ${i} parameters updated`, again.parameters_and_metrics, b);
    }
    for (const [i, batch] of batches.entries()) {
      const saved = await admin.put(`${base}/introduction`, { introduction: documentOf(batch) });
      expect(saved.statusCode, saved.body).toBe(200);
      expectInert(`programme introduction ${i}`, (await admin.get(`${base}/introduction`)).json().introduction, batch);
    }
  });

  it('monitoring key insights are stored inert, created and edited', async () => {
    const s = await monitoringProject(db());
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    const page = await insertPage(db(), s.project.id, { title: 'Falls', number: '1', ownerId: s.people.owner.id });
    for (const [i, batch] of batches.entries()) {
      const created = await admin.post(`${base}/pages/${page.id}/insights`, {
        title: `XSS ${i}`,
        body: documentOf(batch),
        status: 'published',
      });
      expect(created.statusCode, created.body).toBe(201);
      const insight = created.json() as { id: number; version: number; body: string };
      expectInert(`insight ${i} created`, insight.body, batch);
      const next = batches[(i + 1) % batches.length]!;
      const edited = await admin.put(`${base}/insights/${insight.id}`, {
        version: insight.version,
        body: documentOf(next),
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expectInert(`insight ${i} edited`, (await admin.get(`${base}/insights/${insight.id}`)).json().body, next);
    }
  });

  it('policy generator templates (sections), their preview, answers and overrides come out inert', async () => {
    const s = await workflowProject(db());
    await db()
      .update(projects)
      .set({ activeApps: ['policy_management', 'policy_generator', 'standards'] });
    const base = `/api/projects/${s.project.id}/policy-generator`;
    const admin = await ctx.signedIn(s.people.admin);
    // Template syntax ({{ … }}) is checked after sanitising: payloads that look like placeholders are refused (400)
    // or inert; the others go into the sections, a batch of up to 7 sections per template.
    const placeholderLike = XSS_CORPUS.filter((p) => /\{\{|\{%/.test(p.html));
    const plain = XSS_CORPUS.filter((p) => !/\{\{|\{%/.test(p.html));
    const sectionKeys = ['purpose', 'scope', 'definitions', 'policy', 'procedure', 'responsibilities', 'references'];
    const perSection = xssBatches(60, plain);
    const variable = (key: string) => ({
      key,
      label: key,
      type: 'text',
      required: false,
      default: null,
      help: '',
      options: [],
    });
    for (let t = 0; t < perSection.length; t += sectionKeys.length) {
      const group = perSection.slice(t, t + sectionKeys.length);
      const created = await admin.post(`${base}/templates`, { title: `XSS ${t}` });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      const body = {
        title: `XSS ${t}`,
        category: '',
        description: '',
        requires_flags: [],
        sections: group.map((batch, i) => ({
          key: sectionKeys[i],
          html: `<p>{{note}}</p>${documentOf(batch)}`,
        })),
        variables: [variable('note')],
        standards: [],
      };
      const saved = await admin.put(`${base}/templates/${id}/draft`, body);
      expect(saved.statusCode, saved.body).toBe(200);
      const working = saved.json().working.body.sections as { key: string; html: string }[];
      group.forEach((batch, i) => {
        expectInert(`template ${t} section ${i}`, working[i]!.html, batch);
      });
      const published = await admin.post(`${base}/templates/${id}/publish`, { note: '' });
      expect(published.statusCode, published.body).toBe(200);
      const versionId = published.json().current.id as number;
      // Rendered with a payload as the variable's answer, and with overrides for the first section.
      const answer = withoutNul(group[0]![t % group[0]!.length]!.html.slice(0, 2000));
      const preview = await admin.post(`${base}/preview`, {
        template_version_id: versionId,
        answers: { note: answer },
        overrides: { [sectionKeys[0]!]: documentOf(group[1] ?? group[0]!) },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const result = preview.json() as { html: string; sections: { html: string }[] };
      expect(executableMarkup(result.html), `template ${t} preview`).toEqual([]);
      for (const section of result.sections) expect(executableMarkup(section.html)).toEqual([]);
      expect(result.html).toContain(`payload ${(group[1] ?? group[0]!)[0]!.id}`);
    }
    // The placeholder-like payloads one by one: refused with the template's syntax message, or stored inert.
    const created = await admin.post(`${base}/templates`, { title: 'Placeholders' });
    const id = created.json().id as number;
    for (const p of placeholderLike) {
      const saved = await admin.put(`${base}/templates/${id}/draft`, {
        title: 'Placeholders',
        category: '',
        description: '',
        requires_flags: [],
        sections: [{ key: 'purpose', html: xssBlock(p) }],
        variables: [],
        standards: [],
      });
      if (saved.statusCode === 400) {
        expect(saved.json().errors['sections.0.html'], `payload ${p.id}`).toBeDefined();
      } else {
        expect(saved.statusCode, saved.body).toBe(200);
        expectInert(`template payload ${p.id}`, saved.json().working.body.sections[0].html, [p]);
      }
    }
  });

  it('standards element comments are plain text kept exactly as typed', async () => {
    const s = await standardsSetup(ctx);
    const reqId = s.reqs['GOV.1.2'];
    const pieces = chunks(XSS_CORPUS, 3900);
    for (const piece of pieces) {
      const answer = await s.admin.post(`${s.base}/req-assessments/${reqId}/comments`, { body: piece.text });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
    const element = (await s.admin.get(`${s.base}/req-assessments/${reqId}`)).json() as {
      comments: { body: string }[];
    };
    expect(element.comments.map((c) => c.body).sort()).toEqual(pieces.map((p) => p.text).sort());
  });

  describe('terms and conditions (last: once published, every sign-in must accept them)', () => {
    let agent: Awaited<ReturnType<typeof ctx.signedIn>>;
    beforeAll(async () => {
      agent = await ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
    });

    it('drafts and published versions are stored and served inert', async () => {
      for (const [i, batch] of batches.entries()) {
        const draft = await agent.put('/super/terms/draft', { content: documentOf(batch) });
        expect(draft.statusCode, draft.body).toBe(200);
        expectInert(`terms draft ${i}`, draft.json().content, batch);
        expectInert(
          `terms draft ${i} read`,
          (await agent.get(`/super/terms/${draft.json().id}`)).json().content,
          batch,
        );
      }
      for (const [i, batch] of batches.entries()) {
        ctx.clock.advance(1_000);
        const published = await agent.post('/super/terms/publish', { content: documentOf(batch) });
        expect(published.statusCode, published.body).toBe(201);
        expectInert(`terms ${i} published`, published.json().content, batch);
        const pub = (await ctx.agent().get('/api/public/terms-and-conditions')).json() as { content: string };
        expectInert(`terms ${i} public`, pub.content, batch);
      }
    });
  });
});

/**
 * PostgreSQL text cannot hold NUL: the API refuses it in any JSON field (400, plugins/input-guards.ts), so the stored
 * pieces carry U+FFFD where a payload has NUL, as an HTML parser would.
 */
function withoutNul(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** The corpus as plain-text pieces of at most `max` characters (one payload per line). */
function chunks(payloads: readonly XssPayload[], max: number): { text: string }[] {
  const out: { text: string }[] = [];
  let current = '';
  for (const p of payloads) {
    const line = withoutNul(p.html.slice(0, max));
    if (current && current.length + line.length + 1 > max) {
      out.push({ text: current });
      current = '';
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) out.push({ text: current });
  return out;
}
