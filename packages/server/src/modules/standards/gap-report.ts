import { STD_RESULT_LABELS, STD_STATUS_LABELS, type StdResult, type StdStatus } from '@portal/shared';
import type { DbOrTx } from '../../db/client.js';
import { clip, createPdf, facts, footers, heading, type Pdf, paragraph, table } from '../../lib/pdf-drawing.js';
import type { StandardsActor } from '../../policies/standards.js';
import {
  DEFAULTS,
  elementReqs,
  facilityName,
  footerOf,
  KIND_LABELS,
  loadFrameworkRow,
  localWording,
  longDay,
  longMinute,
  openFindings,
  personName,
  type RenderOptions,
} from './binder-data.js';
import { frameworkNodes, isOverdue, loadAssessment } from './records.js';
import { isoDay } from './route-kit.js';

/** The gap report as PDF: the rows of the CSV (every applicable element short of compliant) as a landscape table. */

// ------------------------------------------------------------------------------------------------ gap report

export interface GapRow {
  chapter: string;
  refId: string;
  title: string;
  result: StdResult;
  status: StdStatus;
  owner: string;
  dueDate: string;
  overdue: boolean;
  observation: string;
  wording: string;
  /** The open findings in one cell of the CSV: 'text (due YYYY-MM-DD) | ...'. */
  findings: string;
  /** The same findings for the PDF, which prints their due dates as people read them. */
  openFindings: { text: string; dueDate: string }[];
}

export interface GapReportData {
  facility: string;
  assessment: { id: number; name: string; kind: string };
  framework: { name: string; edition: string };
  generatedAt: Date;
  generatedBy: string;
  applicable: number;
  rows: GapRow[];
}

/** The rows of the gap report (the CSV's: every applicable element short of compliant, in document order). */
export async function loadGapReport(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  now: Date,
): Promise<GapReportData> {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  const framework = await loadFrameworkRow(db, assessment.frameworkId);
  const nodes = await frameworkNodes(db, assessment.frameworkId);
  const reqs = await elementReqs(
    db,
    actor.projectId,
    assessment.id,
    nodes.filter((n) => n.assessable).map((n) => n.id),
  );
  const reqOf = new Map(reqs.map((r) => [r.nodeId, r]));
  const wording = await localWording(
    db,
    actor.projectId,
    nodes.map((n) => n.id),
  );
  const today = isoDay(now);
  const findings = await openFindings(db, actor.projectId, assessment.id, today);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const chapterOf = (id: number) => {
    let at = byId.get(id)!;
    while (at.parentId !== null && byId.has(at.parentId)) at = byId.get(at.parentId)!;
    return at.refId;
  };
  const rows: GapRow[] = [];
  for (const node of nodes) {
    const req = reqOf.get(node.id);
    if (!req || req.result === 'compliant' || req.result === 'not_applicable') continue;
    rows.push({
      chapter: chapterOf(node.id),
      refId: node.refId,
      title: node.title,
      result: req.result as StdResult,
      status: req.status as StdStatus,
      owner: req.ownerName ?? '',
      dueDate: req.dueDate ?? '',
      overdue: isOverdue(req.dueDate, req.status, today),
      observation: req.observation,
      wording: wording.get(node.id)?.wording ?? '',
      findings: (findings.get(req.id) ?? []).map((f) => `${f.text} (due ${f.dueDate})`).join(' | '),
      openFindings: (findings.get(req.id) ?? []).map((f) => ({ text: f.text, dueDate: f.dueDate })),
    });
  }
  return {
    facility: await facilityName(db, actor.projectId),
    assessment: { id: assessment.id, name: assessment.name, kind: KIND_LABELS[assessment.kind] ?? assessment.kind },
    framework: { name: framework.name, edition: framework.edition },
    generatedAt: now,
    generatedBy: await personName(db, actor.userId),
    applicable: reqs.filter((r) => r.result !== 'not_applicable').length,
    rows,
  };
}

function gapSummary(data: GapReportData): [string, string][] {
  const count = (result: StdResult) => data.rows.filter((r) => r.result === result).length;
  return [
    ['Facility', data.facility],
    ['Assessment', `${data.assessment.name} (${data.assessment.kind})`],
    ['Framework', `${data.framework.name}, edition ${data.framework.edition}`],
    [
      'Gaps',
      `${data.rows.length} of ${data.applicable} applicable elements: ${count('non_compliant')} non-compliant, ${count(
        'partially_compliant',
      )} partially compliant, ${count('not_assessed')} not assessed; ${data.rows.filter((r) => r.overdue).length} overdue`,
    ],
    ['Generated', `${longMinute(data.generatedAt)} by ${data.generatedBy}`],
  ];
}

/** Draws the gap report: a summary, then one landscape table row per gap (the CSV's columns). */
export function renderGapReport(
  data: GapReportData,
  options: Partial<RenderOptions> = {},
): { doc: Pdf; pages: number } {
  const { paper, compress } = { ...DEFAULTS, ...options };
  const doc = createPdf({
    paper,
    compress,
    layout: 'landscape',
    title: `Gap report ${data.assessment.name}`,
    author: data.facility,
    createdAt: data.generatedAt,
  });
  heading(doc, 'Gap report', 1);
  facts(doc, gapSummary(data), 80);
  if (data.rows.length === 0) paragraph(doc, 'No gaps: every applicable element is compliant.', { italic: true });
  table(
    doc,
    [
      { header: 'Chapter', weight: 0.9 },
      { header: 'Ref', weight: 1.1 },
      { header: 'Title', weight: 2.4 },
      { header: 'Result', weight: 1.6 },
      { header: 'Status', weight: 1.1 },
      { header: 'Owner', weight: 1.4 },
      // Wide enough for a long date on one line ('September 30, 2026').
      { header: 'Due', weight: 2 },
      { header: 'Overdue', weight: 1.1 },
      { header: 'Observation', weight: 2.6 },
      { header: 'Facility wording', weight: 2.4 },
      { header: 'Open findings', weight: 3 },
    ],
    data.rows.map((r) => [
      r.chapter,
      r.refId,
      r.title,
      STD_RESULT_LABELS[r.result],
      STD_STATUS_LABELS[r.status],
      r.owner,
      longDay(r.dueDate, ''),
      r.overdue ? 'yes' : 'no',
      clip(r.observation, 600),
      clip(r.wording, 600),
      clip(r.openFindings.map((f) => `${f.text} (due ${longDay(f.dueDate)})`).join(' | '), 600),
    ]),
    7,
  );
  const pages = doc.bufferedPageRange().count;
  footers(doc, footerOf(data.facility, data.assessment.name, data.generatedAt, 'Gap report'));
  doc.end();
  return { doc, pages };
}
