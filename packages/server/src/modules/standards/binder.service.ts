import type { DbOrTx } from '../../db/client.js';
import type { StandardsActor } from '../../policies/standards.js';
import { type BinderElement, loadBinder, type PdfFile, type RenderOptions } from './binder-data.js';
import { renderBinder } from './binder-render.js';
import { loadGapReport, renderGapReport } from './gap-report.js';
import { fileSlug, isoDay, standardsAudit } from './route-kit.js';

/**
 * The survey binder and the gap report as PDF (issue 11; docs/standards.md "Survey binder and gap report (PDF)").
 * Everything is read first (loadBinder, loadGapReport), then drawn in memory (renderBinder, renderGapReport), then
 * audited; only then does the route stream the finished document, so a failure answers JSON, never half a PDF.
 */

// ------------------------------------------------------------------------------------------------ exports

/**
 * GET /assessments/{id}/binder.pdf?node=: the survey binder of a chapter, condition, standard or element (at most
 * 500 elements). Read and drawn before anything is sent; audited with the node and the counts.
 */
export async function binderPdf(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  nodeId: number,
  now: Date,
  options: Partial<RenderOptions> = {},
): Promise<PdfFile> {
  const data = await loadBinder(db, actor, assessmentId, nodeId, now);
  const { doc, pages } = renderBinder(data, options);
  const elements = data.items.filter((i): i is BinderElement => i.kind === 'element');
  await standardsAudit(
    db,
    actor,
    'binder_exported',
    { type: 'std_assessment', id: data.assessment.id },
    {
      node_id: data.node.id,
      ref_id: data.node.refId,
      elements: elements.length,
      policies: data.policies.size,
      measures: data.measures.size,
      programs: data.programs.size,
      pages,
    },
    now,
  );
  return { filename: `survey-binder-${fileSlug(data.node.refId)}-${isoDay(now)}.pdf`, stream: doc, pages };
}

/** GET /assessments/{id}/gap-report.pdf: the gap report's rows as a landscape table. Audited (format pdf). */
export async function gapReportPdf(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  now: Date,
  options: Partial<RenderOptions> = {},
): Promise<PdfFile> {
  const data = await loadGapReport(db, actor, assessmentId, now);
  const { doc, pages } = renderGapReport(data, options);
  await standardsAudit(
    db,
    actor,
    'gap_report_exported',
    { type: 'std_assessment', id: data.assessment.id },
    { rows: data.rows.length, format: 'pdf' },
    now,
  );
  return {
    filename: `gap-report-${fileSlug(data.assessment.name.toLowerCase())}-${isoDay(now)}.pdf`,
    stream: doc,
    pages,
  };
}
