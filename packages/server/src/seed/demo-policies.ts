import { SUGGESTED_SYNONYM_GROUPS } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import {
  policyDepartments,
  policyDocuments,
  policyNumberHistory,
  policySearchSynonyms,
  policyVersions,
} from '../db/schema/index.js';
import { sanitizeHtml } from '../lib/sanitize.js';
import { htmlToText } from '../modules/policies/policy-common.js';

/**
 * The demo facility's policy manual: departments and realistic policies, some with an earlier version (to show
 * the redline), some drafts, one archived. Written for the evaluation experience; no real facility's text.
 */
const DEPARTMENTS = [
  { code: 'ADM', name: 'Administration' },
  { code: 'NUR', name: 'Nursing' },
  { code: 'IPC', name: 'Infection Prevention and Control' },
  { code: 'PHA', name: 'Pharmacy' },
  { code: 'PS', name: 'Patient Safety' },
] as const;

type Code = (typeof DEPARTMENTS)[number]['code'];

interface DemoPolicy {
  number: string;
  title: string;
  department: Code;
  body: string;
  /** An earlier published version's body (the current one replaced it). */
  earlier?: string;
  status?: 'published' | 'draft' | 'archived';
}

const section = (purpose: string, policy: string, procedure: string[], refs = '') =>
  `<h2>Purpose</h2><p>${purpose}</p><h2>Policy</h2><p>${policy}</p><h2>Procedure</h2><ol>${procedure
    .map((step) => `<li><p>${step}</p></li>`)
    .join('')}</ol>${refs ? `<h2>References</h2><p>${refs}</p>` : ''}`;

const POLICIES: DemoPolicy[] = [
  {
    number: '1',
    title: 'Governance of policies and procedures',
    department: 'ADM',
    body: section(
      'To set how Demo Facility writes, approves, publishes, reviews and retires its policies and procedures.',
      'Every policy has an owner, a department, a dotted number and a review date. Policies are reviewed at least every 12 months, or sooner when a law, standard or practice changes.',
      [
        'The owner drafts or revises the policy in the portal.',
        'Department reviewers check the draft and return comments within 10 working days.',
        'Signers approve the final text; the policy becomes effective on the date shown.',
        'Staff are notified and confirm that they have read the policy.',
      ],
      'Joint Commission LD.04.01.07; CMS §482.12.',
    ),
  },
  {
    number: '1.1',
    title: 'Policy format and numbering',
    department: 'ADM',
    body: section(
      'To keep every policy recognisable and easy to find.',
      'Policies use the sections Purpose, Policy, Procedure and References. Numbers are dotted (1, 1.1, 1.1.1) and ordered numerically, so 1.2 comes before 1.10.',
      ['Use the portal template for new policies.', 'Ask the policy administrator for a number before publishing.'],
    ),
  },
  {
    number: '1.2',
    title: 'Document retention',
    department: 'ADM',
    body: section(
      'To keep records for as long as law and accreditation require, and no longer.',
      'Superseded policies are kept for at least 10 years after they are replaced. Archived policies remain available to administrators.',
      ['Never delete a policy; archive it.', 'Export an archived policy as PDF when an inspector asks for it.'],
    ),
  },
  {
    number: '2',
    title: 'Nursing practice',
    department: 'NUR',
    body: section(
      'To describe the standards of nursing care at Demo Facility.',
      'Nursing care is planned, delivered and documented according to the nursing process and the policies in this chapter.',
      ['Assess each patient within 8 hours of admission.', 'Update the care plan at every change of condition.'],
    ),
  },
  {
    number: '2.1',
    title: 'Patient identification',
    department: 'NUR',
    body: section(
      'To make sure that every patient receives the care intended for them.',
      'Staff use at least two identifiers (full name and date of birth) before giving medicines, blood, or taking samples. The room number is never an identifier.',
      [
        'Ask the patient to state their full name and date of birth.',
        'Compare the answer with the wristband and the order.',
        'If they do not match, stop and escalate to the nurse in charge.',
      ],
      'Joint Commission NPSG.01.01.01.',
    ),
    earlier: section(
      'To make sure that every patient receives the care intended for them.',
      'Staff use two identifiers before giving medicines. The room number may be used when the patient cannot answer.',
      ['Ask the patient to state their name.', 'Compare the answer with the wristband.'],
    ),
  },
  {
    number: '2.2',
    title: 'Falls prevention',
    department: 'NUR',
    body: section(
      'To reduce falls and injuries from falls among inpatients.',
      'Every adult inpatient is screened for fall risk on admission, after a fall, on transfer and every day. Patients at high risk receive the falls bundle.',
      [
        'Screen with the Morse Fall Scale; a score of 45 or more is high risk.',
        'Apply the bundle: bed low and locked, call bell in reach, non-slip socks, hourly rounding.',
        'After a fall, examine the patient, inform the physician and file an incident report within 24 hours.',
      ],
    ),
    earlier: section(
      'To reduce falls among inpatients.',
      'Every adult inpatient is screened for fall risk on admission. Patients at high risk receive the falls bundle.',
      [
        'Screen with the Morse Fall Scale; a score of 50 or more is high risk.',
        'Apply the bundle: bed low, call bell in reach.',
        'After a fall, inform the physician.',
      ],
    ),
  },
  {
    number: '2.2.1',
    title: 'Bed and chair alarms',
    department: 'NUR',
    body: section(
      'To set when bed and chair alarms are used.',
      'Alarms support, but never replace, supervision of patients at high risk of falling.',
      ['Switch the alarm on when the patient is left alone.', 'Check the alarm at every rounding.'],
    ),
  },
  {
    number: '2.3',
    title: 'Pressure injury prevention',
    department: 'NUR',
    body: section(
      'To prevent hospital-acquired pressure injuries.',
      'Skin is assessed with the Braden Scale on admission and daily; patients scoring 18 or less receive a prevention plan.',
      ['Reposition at least every 2 hours.', 'Use a pressure-redistributing mattress for scores of 12 or less.'],
    ),
  },
  {
    number: '2.10',
    title: 'Handover between shifts',
    department: 'NUR',
    body: section(
      'To pass on everything the next nurse needs to know, every time.',
      'Handover uses the SBAR structure at the bedside, with the patient involved when possible.',
      ['Situation', 'Background', 'Assessment', 'Recommendation'],
    ),
  },
  {
    number: '3',
    title: 'Infection prevention and control',
    department: 'IPC',
    body: section(
      'To protect patients, visitors and staff from healthcare-associated infections.',
      'The infection prevention programme follows national guidance and is reviewed every year by the infection control committee.',
      ['Report alert organisms to the infection prevention team the same day.'],
    ),
  },
  {
    number: '3.1',
    title: 'Hand hygiene',
    department: 'IPC',
    body: `${section(
      'To reduce the spread of infection by the hands of staff.',
      'Staff clean their hands at the WHO five moments, with alcohol-based hand rub unless hands are visibly soiled or the patient has C. difficile, when soap and water are used.',
      [
        'Before touching a patient.',
        'Before a clean or aseptic procedure.',
        'After body fluid exposure risk.',
        'After touching a patient.',
        'After touching patient surroundings.',
      ],
      'WHO Guidelines on Hand Hygiene in Health Care (2009).',
    )}<h2>Monitoring</h2><table><tbody><tr><th><p>Measure</p></th><th><p>Target</p></th></tr><tr><td><p>Hand hygiene compliance (observed)</p></td><td><p>90 % or more</p></td></tr><tr><td><p>Alcohol rub used per 1,000 patient days</p></td><td><p>20 litres or more</p></td></tr></tbody></table>`,
  },
  {
    number: '3.2',
    title: 'Central line insertion and care',
    department: 'IPC',
    body: section(
      'To prevent central line-associated bloodstream infections (CLABSI).',
      'Central lines are inserted with the insertion bundle and assessed every day for need.',
      [
        'Hand hygiene, maximal barrier precautions and chlorhexidine skin preparation at insertion.',
        'Avoid the femoral site in adults.',
        'Remove the line as soon as it is no longer needed.',
      ],
    ),
  },
  {
    number: '3.3',
    title: 'Isolation precautions',
    department: 'IPC',
    body: section(
      'To set which precautions apply to which infections.',
      'Standard precautions apply to every patient; contact, droplet and airborne precautions are added by the infection prevention team.',
      ['Place the isolation sign on the door.', 'Keep the door closed for airborne precautions.'],
    ),
    status: 'draft',
  },
  {
    number: '4',
    title: 'Medication management',
    department: 'PHA',
    body: section(
      'To make the use of medicines safe, from prescription to administration.',
      'Medicines are prescribed electronically, verified by a pharmacist and given by staff trained to give them.',
      ['Check the five rights before every dose.', 'Report every medication error, even without harm.'],
    ),
  },
  {
    number: '4.1',
    title: 'High-alert medications',
    department: 'PHA',
    body: section(
      'To prevent harm from medicines that cause serious injury when used in error.',
      'Insulin, anticoagulants, opioids, concentrated electrolytes and chemotherapy need an independent double check before administration.',
      [
        'Two nurses check the drug, dose, route and pump setting independently.',
        'Store concentrated potassium in pharmacy only.',
      ],
    ),
  },
  {
    number: '4.2',
    title: 'Look-alike, sound-alike medicines',
    department: 'PHA',
    body: section(
      'To prevent mix-ups between medicines with similar names or packaging.',
      'The pharmacy keeps a list of look-alike, sound-alike medicines and labels them with tall-man lettering.',
      ['Store look-alike medicines apart.', 'Read the label three times.'],
    ),
  },
  {
    number: '5',
    title: 'Patient safety and incident reporting',
    department: 'PS',
    body: section(
      'To learn from incidents and near misses.',
      'Every member of staff reports incidents and near misses in the incident system within 24 hours. Reporting is blame-free.',
      [
        'Make the patient safe first.',
        'Report in the incident system.',
        'The patient safety team reviews every report within 5 working days.',
      ],
    ),
  },
  {
    number: '5.1',
    title: 'Rapid response team',
    department: 'PS',
    body: section(
      'To get expert help to a deteriorating patient quickly.',
      'Any member of staff, patient or family member may call the rapid response team on 2222.',
      ['Call when the early warning score is 7 or more, or whenever you are worried.'],
    ),
  },
  {
    number: '5.2',
    title: 'Pager-based emergency paging',
    department: 'PS',
    body: section(
      'Retired: the pager system was replaced by the hospital phone system.',
      'Emergency calls used pagers.',
      ['Dial the pager number.'],
    ),
    status: 'archived',
  },
];

export async function seedDemoPolicies(tx: DbOrTx, projectId: number, authorId: number): Promise<void> {
  const departments = new Map<Code, number>();
  for (const d of DEPARTMENTS) {
    const [row] = await tx
      .insert(policyDepartments)
      .values({ projectId, name: d.name, code: d.code, createdBy: authorId, updatedBy: authorId })
      .returning({ id: policyDepartments.id });
    departments.set(d.code, row!.id);
  }
  for (const p of POLICIES) {
    const status = p.status ?? 'published';
    const [doc] = await tx
      .insert(policyDocuments)
      .values({
        projectId,
        number: p.number,
        title: p.title,
        departmentId: departments.get(p.department)!,
        ownerId: authorId,
        status,
        reviewIntervalMonths: 12,
        effectiveOn: status === 'draft' ? null : '2026-03-01',
        nextReviewOn: status === 'draft' ? null : '2027-03-01',
        archivedAt: status === 'archived' ? new Date('2026-06-30T12:00:00Z') : null,
        archivedBy: status === 'archived' ? authorId : null,
        createdBy: authorId,
        updatedBy: authorId,
      })
      .returning({ id: policyDocuments.id });
    const versions = [...(p.earlier ? [p.earlier] : []), p.body];
    let last = 0;
    for (const [i, body] of versions.entries()) {
      const isLast = i === versions.length - 1;
      const [version] = await tx
        .insert(policyVersions)
        .values({
          projectId,
          documentId: doc!.id,
          version: i + 1,
          state: isLast ? (status === 'draft' ? 'draft' : 'published') : 'superseded',
          content: sanitizeHtml(body),
          changeSummary: i === 0 ? 'First version.' : 'Annual review: clarified identifiers and steps.',
          effectiveOn: status === 'draft' && isLast ? null : i === 0 && !isLast ? '2025-03-01' : '2026-03-01',
          authorId,
          supersededAt: isLast ? null : new Date('2026-03-01T08:00:00Z'),
          updatedBy: authorId,
        })
        .returning({ id: policyVersions.id });
      last = version!.id;
    }
    await tx
      .update(policyDocuments)
      .set(
        status === 'draft'
          ? { draftVersionId: last, searchText: htmlToText(p.body) }
          : { currentVersionId: last, searchText: htmlToText(p.body) },
      )
      .where(eq(policyDocuments.id, doc!.id));
    await tx.insert(policyNumberHistory).values({
      projectId,
      documentId: doc!.id,
      fromNumber: null,
      toNumber: p.number,
      reason: 'create',
      changedBy: authorId,
    });
  }
  // The suggested search synonyms, so "hand washing" finds Hand hygiene from the start.
  await tx.insert(policySearchSynonyms).values(
    SUGGESTED_SYNONYM_GROUPS.map((terms) => ({
      projectId,
      terms: [...terms],
      createdBy: authorId,
      updatedBy: authorId,
    })),
  );
}
