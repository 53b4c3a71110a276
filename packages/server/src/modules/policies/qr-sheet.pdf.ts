import { formatLongDate, type QrSheetQuery, stableLinkPath } from '@portal/shared';
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { DbOrTx } from '../../db/client.js';
import { policyDepartments, policyDocuments } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import { clip, contentWidth, createPdf, footers, type Pdf, pdfText } from '../../lib/pdf-drawing.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { audit } from './policy-common.js';
import { listedFor } from './visibility.js';

/**
 * Sheets of QR codes to print and post on a unit's wall (issue 28): each code is a policy's stable link, so the
 * poster keeps opening the current version after every revision. Only published, numbered policies the caller may
 * see are printed; every sheet is audited like an export.
 */

interface SheetPolicy {
  id: number;
  number: string;
  title: string;
  department: string | null;
  url: string;
}

const COLUMNS = 2;
const ROWS = 3;
const QR_SIZE = 130;

async function sheetPolicies(db: DbOrTx, actor: PolicyActor, query: QrSheetQuery, appUrl: string) {
  const rows = await db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      department: policyDepartments.name,
    })
    .from(policyDocuments)
    .leftJoin(
      policyDepartments,
      and(
        eq(policyDepartments.id, policyDocuments.departmentId),
        eq(policyDepartments.projectId, policyDocuments.projectId),
      ),
    )
    .where(
      and(
        eq(policyDocuments.projectId, actor.projectId),
        ne(policyDocuments.status, 'archived'),
        isNotNull(policyDocuments.currentVersionId),
        isNotNull(policyDocuments.number),
        listedFor(actor),
        query.document_id === undefined ? undefined : eq(policyDocuments.id, query.document_id),
        query.department_id === undefined ? undefined : eq(policyDocuments.departmentId, query.department_id),
      ),
    )
    .orderBy(asc(policyDocuments.number));
  return rows.map(
    (row): SheetPolicy => ({
      id: row.id,
      number: row.number!,
      title: row.title,
      department: row.department,
      url: `${appUrl}${stableLinkPath(actor.projectId, row.number!)}`,
    }),
  );
}

/** Draws a QR code as filled squares (vector: sharp at any printer resolution). */
function drawQr(pdf: Pdf, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = size / modules.size;
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) pdf.rect(x + col * cell, y + row * cell, cell, cell);
    }
  }
  pdf.fillColor('#000000').fill();
}

function drawCard(pdf: Pdf, policy: SheetPolicy, x: number, y: number, width: number): void {
  drawQr(pdf, policy.url, x + (width - QR_SIZE) / 2, y, QR_SIZE);
  let line = y + QR_SIZE + 10;
  pdf
    .font('Helvetica-Bold')
    .fontSize(12)
    .fillColor('#212529')
    .text(pdfText(clip(`${policy.number} ${policy.title}`, 90)), x, line, { width, align: 'center' });
  line = pdf.y + 2;
  if (policy.department) {
    pdf
      .font('Helvetica')
      .fontSize(9.5)
      .fillColor('#495057')
      .text(pdfText(policy.department), x, line, { width, align: 'center' });
    line = pdf.y + 2;
  }
  pdf.font('Courier').fontSize(8).fillColor('#495057').text(pdfText(policy.url), x, line, { width, align: 'center' });
  pdf.fillColor('#212529').font('Helvetica');
}

/** 'December 2, 2026': the product's long date (formatLongDate), a moment's day in UTC. */
const dayOf = (value: Date | string) => formatLongDate(value);

async function auditSheet(db: DbOrTx, actor: PolicyActor, query: QrSheetQuery, policies: SheetPolicy[], now: Date) {
  const subject =
    query.document_id !== undefined
      ? { type: 'policy_document', id: query.document_id }
      : { type: 'policy_department', id: query.department_id! };
  await audit(
    db,
    actor,
    'qr_sheet_printed',
    subject,
    { format: query.format, paper: query.paper, numbers: policies.map((p) => p.number) },
    now,
  );
}

async function policiesOrNotFound(db: DbOrTx, actor: PolicyActor, query: QrSheetQuery, appUrl: string) {
  if (query.department_id !== undefined) {
    const [department] = await db
      .select({ id: policyDepartments.id })
      .from(policyDepartments)
      .where(and(eq(policyDepartments.projectId, actor.projectId), eq(policyDepartments.id, query.department_id)));
    if (!department) throw notFound('Department not found.');
  }
  const policies = await sheetPolicies(db, actor, query, appUrl);
  if (policies.length === 0) {
    throw notFound(
      query.document_id !== undefined
        ? 'This policy needs a number and a published version before it gets a QR code.'
        : 'This department has no numbered, published policy to print.',
    );
  }
  return policies;
}

/** One policy's QR code as an SVG (for an intranet page or a sign made elsewhere). */
export async function qrCodeSvg(
  db: DbOrTx,
  actor: PolicyActor,
  query: QrSheetQuery,
  options: { appUrl: string; now: Date },
) {
  const [policy] = await policiesOrNotFound(db, actor, query, options.appUrl);
  const svg = await QRCode.toString(policy!.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  await auditSheet(db, actor, query, [policy!], options.now);
  return { svg, filename: `QR ${policy!.number}.svg`.replace(/[^\w .-]+/g, '') };
}

/** The printable sheet: six codes a page, each with its number, title, department and address. */
export async function qrSheetPdf(
  db: DbOrTx,
  actor: PolicyActor,
  query: QrSheetQuery,
  options: { appUrl: string; now: Date; compress?: boolean },
) {
  const policies = await policiesOrNotFound(db, actor, query, options.appUrl);
  const pdf = createPdf({
    paper: query.paper,
    compress: options.compress ?? true,
    title: policies.length === 1 ? `QR code ${policies[0]!.number}` : 'Policy QR codes',
    author: '',
    createdAt: options.now,
  });
  const width = contentWidth(pdf) / COLUMNS;
  const top = pdf.page.margins.top;
  const rowHeight = (pdf.page.height - top - pdf.page.margins.bottom) / ROWS;
  policies.forEach((policy, index) => {
    const slot = index % (COLUMNS * ROWS);
    if (index > 0 && slot === 0) pdf.addPage();
    const x = pdf.page.margins.left + (slot % COLUMNS) * width;
    const y = top + Math.floor(slot / COLUMNS) * rowHeight;
    drawCard(pdf, policy, x + 8, y, width - 16);
  });
  const printed = dayOf(options.now);
  footers(
    pdf,
    (page, pages) =>
      `Scan to open the current version. Printed ${printed}.${pages > 1 ? ` Page ${page} of ${pages}.` : ''}`,
  );
  pdf.end();
  await auditSheet(db, actor, query, policies, options.now);
  const name = policies.length === 1 ? `QR ${policies[0]!.number}` : 'Policy QR codes';
  return { stream: pdf, filename: `${name.replace(/[^\w .-]+/g, '')}.pdf` };
}
