import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addComplianceMeasure } from '../../../test/chart-review-findings-kit.js';
import { addTarget } from '../../../test/monitoring-data-kit.js';
import {
  addPolicy,
  addProgram,
  auditOf,
  createAssessment,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  importFramework,
  type StandardsSetup,
  saveElement,
  standardsSetup,
} from '../../../test/standards-kit.js';
import { policySignatures, policyVersions, policyWorkflowEvents, stdNodes, traceLinks } from '../../db/schema/index.js';
import { htmlBlocks } from '../../lib/pdf-drawing.js';
import { BINDER_TOO_LARGE, type BinderData } from './binder-data.js';
import { renderBinder } from './binder-render.js';

/**
 * The survey binder and the gap report as PDF (docs/standards.md "Survey binder and gap report (PDF)"). The text of
 * a PDF is read back by inflating its content streams and decoding the strings of its text operators (pdfkit
 * writes the standard fonts' text as hex WinAnsi strings, split where it kerns).
 */

/** Windows-1252 above 0x7f where it differs from Latin-1 (0x80 to 0x9f). */
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const winAnsi = (bytes: Buffer) =>
  [...bytes].map((b) => (b >= 0x80 && b < 0xa0 ? CP1252[b - 0x80]! : String.fromCharCode(b))).join('');

/** The strings of the Tj/TJ operators of a content stream, one per operator. */
function textOperators(content: string): string[] {
  const found: string[] = [];
  for (const match of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[\s\d.-])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
    const hexes = match[1] !== undefined ? [...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]!) : [match[2]!];
    found.push(hexes.map((hex) => winAnsi(Buffer.from(hex, 'hex'))).join(''));
  }
  return found;
}

/** Every text string drawn in a PDF, one per line (content streams inflated when compressed). */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of raw.matchAll(/\d+ 0 obj\s*<<([\s\S]*?)>>\s*stream\r?\n/g)) {
    const length = /\/Length (\d+)/.exec(match[1]!);
    if (!length) continue;
    const start = match.index + match[0].length;
    const body = pdf.subarray(start, start + Number(length[1]));
    const content = /\/FlateDecode/.test(match[1]!) ? inflateSync(body) : body;
    lines.push(...textOperators(content.toString('latin1')));
  }
  return lines.join('\n');
}

describe('standards survey binder and gap report (PDF)', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const TODAY = new Date('2026-11-27T12:00:00Z');
  const POLICY_HTML = [
    '<h2>Purpose</h2>',
    '<p>The board <strong>meets every quarter</strong> and <em>keeps minutes</em>.<br>Minutes are signed.</p>',
    '<ul><li>Chair opens the meeting</li><li>Secretary keeps minutes<ol><li>Draft within 5 days</li></ol></li></ul>',
    '<table><tr><th>Role</th><th>Duty</th></tr><tr><td>Chair</td><td>Signs minutes</td></tr></table>',
    '<p><img src="https://example.org/poster.png" alt="Board poster"></p>',
  ].join('');

  const binderUrl = (s: StandardsSetup, node: number, assessmentId = s.assessmentId) =>
    `${s.base}/assessments/${assessmentId}/binder.pdf?node=${node}`;

  /** The GOV chapter with evidence: a signed policy on two elements, a measure with data and a programme. */
  async function withEvidence(s: StandardsSetup) {
    await saveElement(s.admin, s.base, s.reqs['GOV.1.1'], {
      result: 'non_compliant',
      status: 'in_progress',
      due_date: '2026-11-01',
      observation: 'Two meetings had no quorum.',
    });
    const wording = await s.admin.put(`${s.base}/req-assessments/${s.reqs['GOV.1.1']}/wording`, {
      wording: 'Our board meets in March, June, September and December.',
      guidance: 'Check the minutes folder.',
      public_url: '',
    });
    expect(wording.statusCode, wording.body).toBe(200);
    const finding = await s.admin.post(`${s.base}/req-assessments/${s.reqs['GOV.1.1']}/findings`, {
      source: 'mock',
      text: 'Two of five board minutes were not signed.',
      likelihood: 'low',
      scope: 'pattern',
      immediate_threat: false,
      cited_on: '2026-11-20',
    });
    expect(finding.statusCode, finding.body).toBe(201);

    const policy = await addPolicy(db(), s.project.id, {
      title: 'Board governance',
      number: '1.1',
      signers: [{ id: s.people.admin.id, name: 'Ada Admin' }],
    });
    const sha = createHash('sha256').update(POLICY_HTML).digest('hex');
    await db().update(policyVersions).set({ content: POLICY_HTML }).where(eq(policyVersions.id, policy.versionId));
    await db()
      .update(policySignatures)
      .set({ contentSha256: sha, meaning: 'Approved as policy owner' })
      .where(eq(policySignatures.versionId, policy.versionId));
    await db()
      .insert(policySignatures)
      .values({
        projectId: s.project.id,
        documentId: policy.id,
        versionId: policy.versionId,
        round: 1,
        signerId: s.people.owner.id,
        signerName: 'Owen Owner',
        signedAt: new Date('2026-01-09T09:00:00Z'),
        contentSha256: 'b'.repeat(64),
        method: 'totp',
        meaning: 'Reviewed',
        voidedAt: new Date('2026-01-09T15:00:00Z'),
        voidReason: 'Sent back to draft',
      });
    for (const [action, actorId, comment] of [
      ['send_to_review', s.people.owner.id, null],
      ['approve', s.people.lead.id, 'Looks right'],
      ['published', s.people.admin.id, null],
    ] as const) {
      await db().insert(policyWorkflowEvents).values({
        projectId: s.project.id,
        documentId: policy.id,
        versionId: policy.versionId,
        actorId,
        action,
        comment,
      });
    }
    const measure = await addComplianceMeasure(
      db(),
      s.project.id,
      [
        [16, 20],
        [17, 20],
        [18, 20],
        [17, 20],
        [19, 20],
        [18, 20],
        [19, 20],
        [20, 20],
        [19, 20],
        [19, 20],
        [10, 20],
      ],
      '2026-01-01',
    );
    await addTarget(db(), measure, 90, '2025-01-01');
    const program = await addProgram(db(), s.project.id, 'Hand hygiene audit');
    const link = async (ref: 'GOV.1.1' | 'GOV.1.2' | 'GOV.2.1', type: string, id: number, note = '') => {
      const answer = await s.admin.post(`${s.base}/links`, {
        node_id: s.nodes[ref],
        target_type: type,
        target_id: id,
        note,
      });
      expect(answer.statusCode, answer.body).toBe(201);
    };
    await link('GOV.1.1', 'policy', policy.id, 'Section 3 covers quorum');
    await link('GOV.1.2', 'policy', policy.id);
    await link('GOV.2.1', 'measure', measure.id);
    await link('GOV.2.1', 'cr_program', program.id);
    return { policy, sha, measure, program };
  }

  it('guards the downloads: 401, 403 without a role, 404 for another project, any standards role reads', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const calls: GuardedCall[] = [
      {
        method: 'GET',
        path: `/assessments/${s.assessmentId}/binder.pdf?node=${s.nodes.GOV}`,
        viewer: true,
        namesRow: true,
      },
      {
        method: 'GET',
        path: `/assessments/${s.assessmentId}/binder.pdf?node=${s.nodes['IC.1.2']}`,
        viewer: true,
        namesRow: true,
      },
      { method: 'GET', path: `/assessments/${s.assessmentId}/gap-report.pdf`, viewer: true, namesRow: true },
    ];
    await expectGuards(ctx, s, calls);
    // Nodes outside the assessment's framework, unknown ones and bad ids.
    const other = await importFramework(db(), s.admin, s.base, { code: 'OTHER-QS' });
    const foreignNode = await s.admin.get(binderUrl(s, other.nodes.GOV!));
    expect(foreignNode.statusCode).toBe(404);
    expect(foreignNode.json().message).toBe('That part is not in the framework of this assessment.');
    expect((await s.admin.get(binderUrl(s, 999_999_999))).statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/assessments/${s.assessmentId}/binder.pdf`)).statusCode).toBe(400);
    expect((await s.admin.get(`${s.base}/assessments/${s.assessmentId}/binder.pdf?node=GOV`)).statusCode).toBe(400);
    expect((await s.admin.get(`${s.base}/assessments/999999/gap-report.pdf`)).statusCode).toBe(404);
    expect(await auditOf(db(), s.project.id, 'standards.binder_exported')).toHaveLength(
      // expectGuards' successful reads: viewer, lead, admin, superadmin for each of the two binders.
      8,
    );
    await expectSwitchedOff(ctx, s, calls);
  });

  it('makes the binder of a chapter: elements, assessment, findings, the signed policy in full, the measure, audited', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const { sha } = await withEvidence(s);
    const viewer = await ctx.signedIn(s.people.viewer);
    const started = performance.now();
    const answer = await viewer.get(binderUrl(s, s.nodes.GOV));
    const ms = performance.now() - started;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="survey-binder-GOV-2026-11-27.pdf"');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const pdf = answer.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    // Letter unless asked for A4.
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 612 792]');
    const text = pdfText(pdf);
    console.info(`Survey binder of GOV (3 elements): ${pdf.length} bytes, ${ms.toFixed(0)} ms through the API`);

    // The cover and the contents.
    expect(text).toContain('Survey binder');
    expect(text).toContain('Self-assessment 2026 (Self-assessment)');
    expect(text).toContain('State quality standards, edition 2026 (State Department of Health)');
    expect(text).toContain('Vera Viewer');
    for (const ref of ['GOV', 'GOV.1', 'GOV.1.1', 'GOV.1.2', 'GOV.2', 'GOV.2.1']) expect(text).toContain(`${ref}\n`);
    expect(text).not.toContain('IC.1.1');
    expect(text).toMatch(
      /Survey binder · North Clinic · Self-assessment 2026 · generated November 27, 2026 · page 1 of \d+/,
    );
    // Dates as people read them (the shared long US date), never ISO: only the CSV exports keep ISO dates.
    expect(text).toContain('November 27, 2026, 12:00 UTC');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The element: framework text (the facility's own framework), wording, guidance, assessment, finding.
    expect(text).toContain('GOV.1.1 Board meets quarterly');
    expect(text).toContain('The board meets at least once a quarter.');
    expect(text).toContain('Our board meets in March, June, September and December.');
    expect(text).toContain('Check the minutes folder.');
    expect(text).toContain('Non-compliant');
    expect(text).toContain('November 1, 2026 (overdue)');
    expect(text).toContain('Two meetings had no quorum.');
    expect(text).toContain('Owen Owner');
    expect(text).toContain('Two of five board minutes were not signed.');
    expect(text).toMatch(/Low likelihood,\s+pattern/);
    // Cited and due dates each on one line of their cells.
    expect(text).toContain('November 20, 2026\nJanuary 19, 2027');
    // The policy: approval trail, signatures with the SHA-256 (the voided one marked), its text.
    expect(text).toContain('Policy 1.1 Board governance');
    expect(text).toContain('Section 3 covers quorum');
    expect(text).toContain('Sent for review');
    expect(text).toContain('Looks right');
    expect(text).toContain('Leo Lead');
    expect(text).toContain('Ada Admin');
    expect(text).toContain('January 10, 2026, 10:00 UTC');
    expect(text).toContain('Approved as policy owner');
    expect(text).toContain(sha);
    expect(text).toContain('Owen Owner (VOIDED)');
    expect(text).toContain('Voided January 9, 2026, 15:00 UTC: Sent back to draft');
    expect(text).toContain('Purpose');
    expect(text).toContain('meets every quarter');
    expect(text).toContain('•\nSecretary keeps minutes');
    expect(text).toContain('Draft within 5 days');
    expect(text).toContain('Signs minutes');
    expect(text).toContain('[image: Board poster]');
    // Printed once: the second element refers to it.
    expect(text.split(sha)).toHaveLength(2);
    expect(text).toMatch(/Printed in full on page \d+, with its approval trail and signatures\./);
    // The measure: name, page, the last complete periods against the target; the programme.
    expect(text).toContain('Measure Pain reassessment compliance');
    expect(text).toContain('Pain audit');
    expect(text).toContain('Target');
    expect(text).toContain('95%');
    expect(text).toContain('90%');
    expect(text).not.toMatch(/\d %/);
    expect(text).toContain('Chart review Hand hygiene audit');
    expect(text).toContain('No reviewed period yet');

    const [event] = await auditOf(db(), s.project.id, 'standards.binder_exported');
    expect(event).toMatchObject({ actorUserId: s.people.viewer.id, subjectType: 'std_assessment' });
    expect(event?.data).toMatchObject({
      node_id: s.nodes.GOV,
      ref_id: 'GOV',
      elements: 3,
      policies: 1,
      measures: 1,
      programs: 1,
    });
    expect(event?.data.pages).toEqual(expect.any(Number));

    const a4 = await viewer.get(`${binderUrl(s, s.nodes['GOV.1.1'])}&paper=a4`);
    expect(a4.statusCode).toBe(200);
    expect(a4.headers['content-disposition']).toBe('attachment; filename="survey-binder-GOV.1.1-2026-11-27.pdf"');
    expect(a4.rawPayload.toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(pdfText(a4.rawPayload)).not.toContain('GOV.1.2');
  });

  it('never prints the text of an identifiers-only framework, whatever its rows hold', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const csv = [
      'ref_id,parent_ref_id,type,title',
      'PC,,chapter,Provision of care',
      'PC.01,PC,standard,Plans care',
      'PC.01.01,PC.01,ep,Care is planned',
    ].join('\n');
    const { framework, nodes } = await importFramework(db(), s.admin, s.base, {
      code: 'PUB-HAP',
      name: 'Publisher hospital manual',
      text_policy: 'identifiers_only',
      csv,
    });
    await db()
      .update(stdNodes)
      .set({ officialText: 'SECRET PUBLISHER WORDS' })
      .where(eq(stdNodes.frameworkId, framework.id));
    const assessment = await createAssessment(db(), s.admin, s.base, framework.id, { name: 'Publisher 2026' });
    const answer = await s.admin.get(binderUrl(s, nodes.PC!, assessment.id));
    expect(answer.statusCode, answer.body).toBe(200);
    const text = pdfText(answer.rawPayload);
    expect(text).toContain('PC.01.01 Care is planned');
    expect(text).toContain('kept by identifiers and titles only');
    expect(text).not.toContain('SECRET');
    expect(answer.rawPayload.toString('latin1')).not.toContain('SECRET');
  });

  it('refuses a binder of more than 500 elements with a message, before writing anything; 500 render', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    // BIG holds BIG.A (500 elements) and BIG.B (1 element): 501 in all.
    const rows = ['ref_id,parent_ref_id,type,title', 'BIG,,chapter,Big chapter', 'BIG.A,BIG,standard,Most'];
    for (let i = 1; i <= 500; i += 1) rows.push(`BIG.A.${i},BIG.A,element,Element ${i} of the big standard`);
    rows.push('BIG.B,BIG,standard,The rest', 'BIG.B.1,BIG.B,element,The 501st element');
    const { framework, nodes } = await importFramework(db(), s.admin, s.base, { code: 'BIG-QS', csv: rows.join('\n') });
    const assessment = await createAssessment(db(), s.admin, s.base, framework.id, { name: 'Big 2026' });
    const refused = await s.admin.get(binderUrl(s, nodes.BIG!, assessment.id));
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('application/json');
    expect(refused.json()).toMatchObject({ message: BINDER_TOO_LARGE, errors: { node: [BINDER_TOO_LARGE] } });
    expect(await auditOf(db(), s.project.id, 'standards.binder_exported')).toHaveLength(0);

    // At the cap: every element supported by the same signed policy (printed once), every 50th by a measure.
    const { policy, measure } = await withEvidence(s);
    const elementIds = Object.entries(nodes).filter(([ref]) => ref.startsWith('BIG.A.'));
    await db()
      .insert(traceLinks)
      .values([
        ...elementIds.map(([, nodeId]) => ({
          projectId: s.project.id,
          nodeId,
          targetType: 'policy',
          targetId: policy.id,
        })),
        ...elementIds
          .filter((_, i) => i % 50 === 0)
          .map(([, nodeId]) => ({ projectId: s.project.id, nodeId, targetType: 'measure', targetId: measure.id })),
      ]);
    const started = performance.now();
    const big = await s.admin.get(binderUrl(s, nodes['BIG.A']!, assessment.id));
    const ms = performance.now() - started;
    expect(big.statusCode, big.body).toBe(200);
    const [event] = await auditOf(db(), s.project.id, 'standards.binder_exported');
    expect(event?.data).toMatchObject({ elements: 500, policies: 1, measures: 1, programs: 0 });
    console.info(
      `Survey binder of 500 elements: ${big.rawPayload.length} bytes, ${event?.data.pages} pages, ${ms.toFixed(0)} ms through the API`,
    );
    expect(pdfText(big.rawPayload)).toContain('BIG.A.500 Element 500 of the big standard');
  });

  it('exports the gap report as a landscape PDF with a summary and the gap rows, audited', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    await saveElement(s.admin, s.base, s.reqs['GOV.1.1'], {
      result: 'non_compliant',
      observation: 'No quorum twice.',
      due_date: '2026-12-15',
    });
    await saveElement(s.admin, s.base, s.reqs['GOV.1.2'], { result: 'compliant' });
    await saveElement(s.admin, s.base, s.reqs['OB.1'], { result: 'not_applicable', na_justification: 'No births.' });
    const answer = await (await ctx.signedIn(s.people.viewer)).get(
      `${s.base}/assessments/${s.assessmentId}/gap-report.pdf`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="gap-report-self-assessment-2026-2026-11-27.pdf"',
    );
    const raw = answer.rawPayload.toString('latin1');
    expect(raw).toContain('/MediaBox [0 0 792 612]');
    const text = pdfText(answer.rawPayload);
    expect(text).toContain('Gap report');
    expect(text).toContain(
      '4 of 5 applicable elements: 1 non-compliant, 0 partially compliant, 3 not assessed; 0 overdue',
    );
    for (const ref of ['GOV.1.1', 'GOV.2.1', 'IC.1.1', 'IC.1.2']) expect(text).toContain(`${ref}\n`);
    expect(text).not.toContain('GOV.1.2');
    expect(text).not.toContain('OB.1');
    expect(text).toContain('No quorum twice.');
    expect(text).toContain('December 15, 2026');
    expect(text).toMatch(
      /Gap report · North Clinic · Self-assessment 2026 · generated November 27, 2026 · page 1 of 1/,
    );
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const [event] = await auditOf(db(), s.project.id, 'standards.gap_report_exported');
    expect(event?.data).toEqual({ rows: 4, format: 'pdf' });
  });

  it('renders uncompressed on request, and reads policy HTML into headings, runs, lists, tables and image notes', () => {
    expect(htmlBlocks(POLICY_HTML)).toEqual([
      { kind: 'heading', level: 2, runs: [{ text: 'Purpose', bold: true, italic: false }] },
      {
        kind: 'paragraph',
        indent: 0,
        bullet: null,
        runs: [
          { text: 'The board ', bold: false, italic: false },
          { text: 'meets every quarter', bold: true, italic: false },
          { text: ' and ', bold: false, italic: false },
          { text: 'keeps minutes', bold: false, italic: true },
          { text: '.\nMinutes are signed.', bold: false, italic: false },
        ],
      },
      {
        kind: 'paragraph',
        indent: 14,
        bullet: '•',
        runs: [{ text: 'Chair opens the meeting', bold: false, italic: false }],
      },
      {
        kind: 'paragraph',
        indent: 14,
        bullet: '•',
        runs: [{ text: 'Secretary keeps minutes', bold: false, italic: false }],
      },
      {
        kind: 'paragraph',
        indent: 28,
        bullet: '1.',
        runs: [{ text: 'Draft within 5 days', bold: false, italic: false }],
      },
      {
        kind: 'table',
        rows: [
          ['Role', 'Duty'],
          ['Chair', 'Signs minutes'],
        ],
      },
      {
        kind: 'paragraph',
        indent: 0,
        bullet: null,
        runs: [{ text: '[image: Board poster]', bold: false, italic: true }],
      },
    ]);
    expect(htmlBlocks('<p>a<script>alert(1)</script></p><p> </p>')).toEqual([
      { kind: 'paragraph', indent: 0, bullet: null, runs: [{ text: 'a', bold: false, italic: false }] },
    ]);

    const data: BinderData = {
      facility: 'North Clinic',
      assessment: { id: 1, name: 'Self-assessment 2026', kind: 'Self-assessment', surveyWindow: null },
      framework: {
        name: 'State quality standards',
        edition: '2026',
        publisher: 'State',
        textPolicy: 'tenant_text',
        licenceNote: '',
      },
      node: { id: 1, refId: 'GOV', title: 'Governance', nodeType: 'chapter' },
      generatedAt: TODAY,
      generatedBy: 'Ada Admin',
      items: [{ kind: 'section', nodeId: 1, refId: 'GOV', title: 'Governance', depth: 0, text: null }],
      policies: new Map(),
      measures: new Map(),
      programs: new Map(),
      questions: new Map(),
    };
    const chunks: Buffer[] = [];
    const { doc, pages } = renderBinder(data, { compress: false });
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    return new Promise<void>((resolve) => {
      doc.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        expect(raw).not.toContain('/FlateDecode');
        expect(textOperators(raw)).toContain('Governance');
        expect(pages).toBe(2);
        resolve();
      });
    });
  });
});
