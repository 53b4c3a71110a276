import { formatLongDate } from '@portal/shared';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import {
  createPdf,
  drawHtml,
  facts,
  footers,
  heading,
  htmlBlocks,
  type Paper,
  paragraph,
  rule,
} from '../../lib/pdf-drawing.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { approvedAt } from './approval.js';
import { loadDetail } from './documents.service.js';
import { audit } from './policy-common.js';

/** What a printed policy says at the foot of every page (SPEC: printed copies are not controlled). */
export const UNCONTROLLED_COPY = 'Printed copies are not controlled.';

/** 'December 2, 2026': the product's long date (formatLongDate), a moment's day in UTC. */
const dayOf = (value: Date | string) => formatLongDate(value);

/**
 * The current published version of a policy as a PDF to print or keep: its number, title, version, approval and
 * effective dates, the text, and on every page that printed copies are not controlled, with the stable address
 * that always opens the current version. Drafts are never printed here (the print screen does that, watermarked).
 */
export async function printedPolicyPdf(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  options: { paper: Paper; appUrl: string; now: Date },
) {
  const doc = await loadDetail(db, actor, documentId);
  const version = doc.current_version;
  if (!version || doc.status === 'archived') throw notFound('This policy has no current version to print.');
  const approved = await approvedAt(db, actor.projectId, version.id);
  const name = doc.number ? `${doc.number} ${doc.title}` : doc.title;
  const link = doc.number ? `${options.appUrl}/p/${actor.projectId}/${encodeURIComponent(doc.number)}` : null;

  const pdf = createPdf({ paper: options.paper, compress: true, title: name, author: '', createdAt: options.now });
  heading(pdf, name, 1);
  facts(pdf, [
    ['Version', String(version.version)],
    ['Approved', approved ? dayOf(approved) : 'Not recorded'],
    ['Effective', version.effective_on ? dayOf(version.effective_on) : 'Not yet effective'],
    ...(doc.department ? ([['Department', doc.department.name]] as const) : []),
    ...(doc.next_review_on ? ([['Next review', dayOf(doc.next_review_on)]] as const) : []),
  ]);
  rule(pdf);
  const blocks = htmlBlocks(version.content);
  if (blocks.length > 0) drawHtml(pdf, blocks);
  else paragraph(pdf, 'This version is kept as a file: open the portal to read its original.', { muted: true });
  const printed = dayOf(options.now);
  footers(
    pdf,
    (page, pages) =>
      `${UNCONTROLLED_COPY} ${link ? `Current version: ${link}. ` : ''}Printed ${printed}. Page ${page} of ${pages}.`,
  );
  pdf.end();

  await audit(
    db,
    actor,
    'document_pdf_downloaded',
    { type: 'policy_document', id: doc.id },
    { version: version.version, paper: options.paper },
    options.now,
  );
  const file = (doc.number ? `${doc.number} ${doc.title}` : doc.title).replace(/[^\w .-]+/g, '').trim() || 'policy';
  return { stream: pdf, filename: `${file.slice(0, 120)} v${version.version}.pdf` };
}
