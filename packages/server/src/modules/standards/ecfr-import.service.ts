import type { Database } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { requireBuiltInEditor } from '../../policies/standards.js';
import { EcfrFormatError, parseEcfrPart } from './ecfr/ecfr-xml.js';
import { addBuiltInEdition, CMS_HOSPITAL_COP, ECFR_PARTS } from './frameworks.service.js';

/**
 * Loads an edition of a regulation from the official eCFR XML (docs/standards.md "Editions from the eCFR"): a
 * built-in framework every project reads, named "eCFR as of <date>", with the crosswalk from the edition before it
 * derived from the two texts. A superadmin uploads the file on the standards screens, or an operator runs
 * `npm run ecfr:import -- <file.xml> [--as-of YYYY-MM-DD]`.
 */

export interface EcfrImportInput {
  xml: string;
  /** The day the text was taken; the XML's AMDDATE when not given. */
  asOf?: string | null;
}

export interface EcfrImported {
  framework_id: number;
  code: string;
  edition: string;
  as_of: string;
  sections: number;
  paragraphs: number;
  in_force_later: number;
  previous_edition: string | null;
  mappings: number;
}

/** The parts this portal knows how to present, by title and part: their framework's name and publisher. */
const KNOWN_PARTS: Record<string, typeof CMS_HOSPITAL_COP> = { '42/482': CMS_HOSPITAL_COP };

const refuse = (message: string, field = 'file'): never => {
  throw new AppError('VALIDATION_FAILED', message, { [field]: [message] });
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function importEcfrEdition(
  db: Database,
  actor: { userId: number | null; isSuperadmin: boolean; ip?: string | null; requestId?: string | null },
  input: EcfrImportInput,
  now: Date,
): Promise<EcfrImported> {
  requireBuiltInEditor(actor);
  let part: ReturnType<typeof parseEcfrPart>;
  try {
    part = parseEcfrPart(input.xml, { optionalSubparts: ECFR_PARTS['CMS-482']!.optionalSubparts });
  } catch (error) {
    if (error instanceof EcfrFormatError) refuse(`This is not an eCFR part we can read: ${error.message}`);
    throw error;
  }
  const known = KNOWN_PARTS[`${part.title}/${part.part}`];
  if (!known) {
    refuse(`The file holds ${part.title} CFR Part ${part.part}; this portal loads 42 CFR Part 482 (hospitals).`);
  }
  const asOf = input.asOf?.trim() || part.amendedDate;
  if (!asOf) refuse('Give the date of this eCFR text: the file does not say it.', 'as_of');
  if (!ISO_DATE.test(asOf!) || Number.isNaN(Date.parse(asOf!))) refuse('Give the date as YYYY-MM-DD.', 'as_of');
  if (asOf! > now.toISOString().slice(0, 10)) refuse('The date of the text cannot be in the future.', 'as_of');
  const sections = part.rows.filter((row) => row.type === 'condition').length;
  if (sections === 0) refuse('The file holds no sections.');
  const meta = {
    ...known!,
    edition: `eCFR as of ${asOf}`,
    asOf: asOf!,
    licenceNote: `Regulation text of ${part.title} CFR Part ${part.part} as the eCFR printed it on ${asOf}, read mechanically from its XML: a work of the US government in the public domain (17 U.S.C. 105). Paragraphs with a later effective date are marked in force from that day. Check the current eCFR before a survey.`,
  };
  const today = now.toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const added = await addBuiltInEdition(tx, meta, part.rows, actor.userId);
    if (!added) {
      const message = `${meta.code} ${meta.edition} is already loaded.`;
      throw new AppError('CONFLICT', message, { as_of: [message] });
    }
    const result: EcfrImported = {
      framework_id: added.frameworkId,
      code: meta.code,
      edition: meta.edition,
      as_of: asOf!,
      sections,
      paragraphs: part.rows.length - sections - part.rows.filter((row) => row.type === 'chapter').length,
      in_force_later: part.rows.filter((row) => row.inForceFrom !== null && row.inForceFrom > today).length,
      previous_edition: added.previous?.edition ?? null,
      mappings: added.mappings,
    };
    await recordAudit(tx, {
      action: 'standards.edition_loaded',
      actorUserId: actor.userId,
      subjectType: 'std_framework',
      subjectId: added.frameworkId,
      data: { ...result },
      ip: actor.ip ?? null,
      requestId: actor.requestId ?? null,
      at: now,
    });
    return result;
  });
}
