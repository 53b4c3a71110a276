import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { policyProject } from '../../../test/policy-kit.js';
import { auditEvents, pgLlmCalls, projects, stdNodes } from '../../db/schema/index.js';
import { sha256 } from '../../lib/crypto.js';
import { ensureBuiltInFrameworks } from '../standards/frameworks.service.js';
import { refinePrompt, suggestionHtml } from './assist.service.js';

/**
 * The writing assistant against a small fake OpenAI-compatible endpoint on 127.0.0.1: what it is sent, what comes
 * back as a redline, the log of every call, and a model that is down.
 */
const received: { body: { model: string; messages: { role: string; content: string }[] }; auth?: string }[] = [];
let reply: (prompt: string) => { status: number; body: unknown } = () => ({
  status: 200,
  body: {
    choices: [
      { message: { content: '```html\n<p>Staff clean their hands before and after every patient contact.</p>\n```' } },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 14 },
  },
});

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => resolve(data));
  });

const fake = createServer(async (req, res) => {
  const text = await read(req);
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404).end();
    return;
  }
  received.push({ body: JSON.parse(text), auth: req.headers.authorization });
  const answer = reply(text);
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
});
await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
const port = (fake.address() as AddressInfo).port;
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

describe('writing assistant (configured)', () => {
  const ctx = useTestApp({
    env: { ASSIST_URL: `http://127.0.0.1:${port}/v1/`, ASSIST_MODEL: 'llama-test', ASSIST_API_KEY: 'sk-local' },
  });
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    await db()
      .update(projects)
      .set({ activeApps: ['policy_management', 'policy_generator'] });
    const author = await ctx.signedIn(s.people.author);
    const base = `/api/projects/${s.project.id}/policy-generator`;
    const library = (await author.get(`${base}/templates`)).json().templates[0] as {
      id: number;
      published: { id: number };
    };
    return { ...s, author, base, templateId: library.id, versionId: library.published.id };
  }

  it('says which model it uses', async () => {
    const s = await setup();
    const status = await s.author.get(`${s.base}/assist`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      enabled: true,
      model: 'llama-test',
      actions: ['clearer', 'shorter', 'formal', 'plain', 'address_standard'],
    });
  });

  it('suggests a rewrite as a redline, sends only the section, and logs the call', async () => {
    const s = await setup();
    received.length = 0;
    const section = '<p>Staff must wash hands <strong>always</strong> at {{facility_name}}.</p>';
    const answer = await s.author.post(`${s.base}/assist/refine`, {
      template_version_id: s.versionId,
      section_key: 'procedure',
      html: section,
      action: 'plain',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const out = answer.json();
    expect(out.html).toBe('<p>Staff clean their hands before and after every patient contact.</p>');
    expect(out.redline.html).toContain('<del');
    expect(out.redline.html).toContain('<ins');

    expect(received).toHaveLength(1);
    const sent = received[0]!;
    expect(sent.auth).toBe('Bearer sk-local');
    expect(sent.body.model).toBe('llama-test');
    expect(sent.body.messages).toEqual(refinePrompt('procedure', 'plain', section));
    // Nothing but the section: not the project's name, nor any person.
    const prompt = JSON.stringify(sent.body.messages);
    expect(prompt).not.toContain('North Clinic');
    expect(prompt).not.toContain('South Clinic');
    expect(prompt).not.toContain('Otto');

    const [call] = await db().select().from(pgLlmCalls).where(eq(pgLlmCalls.id, out.call_id));
    expect(call).toMatchObject({
      projectId: s.project.id,
      sectionKey: 'procedure',
      action: 'plain',
      model: 'llama-test',
      promptTokens: 120,
      completionTokens: 14,
      outcome: 'ok',
      accepted: null,
      createdBy: s.people.author.id,
      promptHash: sha256(JSON.stringify(refinePrompt('procedure', 'plain', section))),
    });

    const decided = await s.author.post(`${s.base}/assist/calls/${out.call_id}/decision`, { accepted: true });
    expect(decided.statusCode).toBe(204);
    expect(
      (await s.author.post(`${s.base}/assist/calls/${out.call_id}/decision`, { accepted: false })).statusCode,
    ).toBe(409);
    const [after] = await db().select().from(pgLlmCalls).where(eq(pgLlmCalls.id, out.call_id));
    expect(after!.accepted).toBe(true);
    const actions = (
      await db().select({ a: auditEvents.action }).from(auditEvents).where(eq(auditEvents.projectId, s.project.id))
    ).map((r) => r.a);
    expect(actions).toEqual(
      expect.arrayContaining(['policy_generator.assist_called', 'policy_generator.assist_accepted']),
    );

    // Someone else (here: another project's admin in their own project) cannot answer it.
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = `/api/projects/${s.other.id}/policy-generator/assist/calls/${out.call_id}/decision`;
    expect((await outsider.post(theirs, { accepted: false })).statusCode).toBe(404);
  });

  it('suggests text for a standard the template lists, with its public-domain text, and refuses any other', async () => {
    const s = await setup();
    await ensureBuiltInFrameworks(db());
    const detail = (await s.author.get(`${s.base}/templates/${s.templateId}`)).json();
    const listed = detail.current_standards[0] as { framework: string; ref_id: string; title: string };
    expect(listed.framework).toBe('CMS-482');
    const [node] = await db()
      .select({ title: stdNodes.title, text: stdNodes.officialText })
      .from(stdNodes)
      .where(eq(stdNodes.refId, listed.ref_id));
    expect(node!.text).toBeTruthy();

    received.length = 0;
    const section = '<p>Staff clean their hands.</p>';
    const standard = { framework: listed.framework, ref_id: listed.ref_id };
    reply = () => ({
      status: 200,
      body: {
        choices: [
          { message: { content: `<p>Staff clean their hands.</p><p>The programme meets ${listed.ref_id}.</p>` } },
        ],
      },
    });
    const answer = await s.author.post(`${s.base}/assist/refine`, {
      template_version_id: s.versionId,
      section_key: 'policy',
      html: section,
      action: 'address_standard',
      standard,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().redline).toMatchObject({ deletions: 0 });
    expect(answer.json().redline.insertions).toBeGreaterThan(0);
    const sent = received[0]!.body.messages;
    expect(sent).toEqual(
      refinePrompt('policy', 'address_standard', section, { ...standard, title: node!.title, text: node!.text }),
    );
    expect(sent[1]!.content).toContain(node!.text!);
    expect(sent[1]!.content).toContain(`${listed.framework} ${listed.ref_id} ${node!.title}`);
    const [call] = await db().select().from(pgLlmCalls).where(eq(pgLlmCalls.id, answer.json().call_id));
    expect(call).toMatchObject({ action: 'address_standard', sectionKey: 'policy', outcome: 'ok' });
    const [audit] = await db()
      .select({ meta: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'policy_generator.assist_called'),
          eq(auditEvents.subjectId, String(answer.json().call_id)),
        ),
      );
    expect(audit!.meta).toMatchObject({ action: 'address_standard', standard: `${listed.framework} ${listed.ref_id}` });

    // A standard the template does not list never reaches the model; nor does a standard with a rewrite, nor no
    // standard with address_standard.
    const before = received.length;
    const body = { template_version_id: s.versionId, section_key: 'policy', html: section };
    const other = await s.author.post(`${s.base}/assist/refine`, {
      ...body,
      action: 'address_standard',
      standard: { framework: 'CMS-482', ref_id: '§482.99(z)' },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors.standard).toEqual(['CMS-482 §482.99(z) is not a standard this template lists.']);
    const none = await s.author.post(`${s.base}/assist/refine`, { ...body, action: 'address_standard' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors.standard).toEqual(['Choose the standard to address.']);
    const mixed = await s.author.post(`${s.base}/assist/refine`, { ...body, action: 'plain', standard });
    expect(mixed.statusCode).toBe(400);
    expect(received).toHaveLength(before);

    // The section handed back unchanged is no suggestion.
    reply = () => ({ status: 200, body: { choices: [{ message: { content: section } }] } });
    const same = await s.author.post(`${s.base}/assist/refine`, { ...body, action: 'address_standard', standard });
    expect(same.statusCode).toBe(503);
    expect(same.json().message).toBe('The writing assistant gave no suggestion for this section. Try another action.');
    const outcomes = (
      await db().select({ o: pgLlmCalls.outcome }).from(pgLlmCalls).where(eq(pgLlmCalls.projectId, s.project.id))
    ).map((r) => r.o);
    expect(outcomes).toEqual(['ok', 'unchanged']);
  });

  it("answers 404 for another project's template, before any prompt reaches the model", async () => {
    const s = await setup();
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = `/api/projects/${s.other.id}/policy-generator`;
    const copy = await outsider.post(`${theirs}/templates`, { copy_of: s.templateId });
    expect(copy.statusCode, copy.body).toBe(201);
    const published = await outsider.post(`${theirs}/templates/${copy.json().id}/publish`, { note: '' });
    expect(published.statusCode, published.body).toBe(200);
    const otherVersion = published.json().current.id as number;

    received.length = 0;
    const answer = await s.author.post(`${s.base}/assist/refine`, {
      template_version_id: otherVersion,
      section_key: 'purpose',
      html: '<p>Text.</p>',
      action: 'plain',
    });
    expect(answer.statusCode).toBe(404);
    expect(received).toHaveLength(0);
    expect(await db().select().from(pgLlmCalls).where(eq(pgLlmCalls.projectId, s.project.id))).toHaveLength(0);
  });

  it('logs a model that is down or answers nothing, and says so without a suggestion', async () => {
    const s = await setup();
    const body = { template_version_id: s.versionId, section_key: 'purpose', html: '<p>Text.</p>', action: 'shorter' };
    reply = () => ({ status: 500, body: { error: 'boom' } });
    const down = await s.author.post(`${s.base}/assist/refine`, body);
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toBe(
      'The writing assistant did not answer. Try again later; the policy itself does not need it.',
    );
    reply = () => ({ status: 200, body: { choices: [{ message: { content: '   ' } }] } });
    const empty = await s.author.post(`${s.base}/assist/refine`, body);
    expect(empty.statusCode).toBe(503);
    const outcomes = (
      await db().select({ o: pgLlmCalls.outcome }).from(pgLlmCalls).where(eq(pgLlmCalls.projectId, s.project.id))
    ).map((r) => r.o);
    expect(outcomes).toEqual(['http_500', 'empty']);
  });

  it('cleans what the model answers: plain text becomes paragraphs, markup is sanitised', () => {
    expect(suggestionHtml('First.\n\nSecond <b>& more</b>')).toBe(
      '<p>First.</p><p>Second &lt;b&gt;&amp; more&lt;/b&gt;</p>',
    );
    expect(suggestionHtml('<p onclick="x()">Hi</p><script>alert(1)</script>')).toBe('<p>Hi</p>');
  });
});
