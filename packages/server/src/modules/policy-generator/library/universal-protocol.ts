import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const universalProtocol: LibraryTemplate = {
  code: 'universal-protocol',
  body: {
    title: 'Correct Site Surgery: Verification, Site Marking and Time-Out',
    category: 'Surgical Services',
    description:
      'Pre-procedure verification, site marking and the time-out to prevent wrong-site, wrong-procedure and ' +
      'wrong-patient surgery and invasive procedures.',
    requires_flags: ['has_surgery'],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To prevent wrong-patient, wrong-site and wrong-procedure events at {{facility_name}} through a
          standard verification process, marking of the site and a time-out before every surgery and invasive
          procedure.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All surgical procedures in the operating rooms{{#if outside_or}}, and invasive procedures performed
          elsewhere, including interventional radiology, endoscopy, cardiac catheterization and bedside
          procedures{{/if}}. It applies to every member of the procedural team.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Pre-procedure verification</strong>: confirming that the correct patient, procedure and site
          are scheduled and that the documents, images and equipment needed are present.</p></li>
          <li><p><strong>Site marking</strong>: marking the incision or insertion site with {{marking_method}} using a
          skin marker that stays visible after preparation and draping.</p></li>
          <li><p><strong>Time-out</strong>: a pause by the whole team immediately before the incision or start of the
          procedure to confirm the patient, procedure and site.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <ul>
          <li><p>The procedure does not start until verification, marking and the time-out are complete and every
          discrepancy is resolved.</p></li>
          <li><p>The site is marked when there is laterality, more than one structure (such as fingers or toes) or
          more than one level (such as the spine). The person performing the procedure marks it, with the patient
          awake and involved where possible.</p></li>
          <li><p>Marking is not required for midline sites, single organs, procedures through a natural orifice or
          teeth (which are marked on the dental diagram). When the site cannot be marked, for example for premature
          infants or patient refusal, a marked wristband or diagram is used instead.</p></li>
          <li><p>Any team member may stop the procedure when they have a concern; the team resolves it before
          continuing.</p></li>
          </ul>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Pre-procedure verification</h3>
          <ol>
          <li><p>At scheduling, in pre-procedure care and on arrival in the procedure room, confirm with the patient
          and the records: identity with two identifiers, procedure, site and side.</p></li>
          <li><p>Confirm that the properly executed consent form, history and physical, test results, images, blood
          products, implants and special equipment are present and match.</p></li>
          </ol>
          <h3>Site marking</h3>
          <ol>
          <li><p>The person performing the procedure marks the site before the patient moves to the procedure
          room.</p></li>
          </ol>
          <h3>Time-out</h3>
          <ol>
          <li><p>Immediately before incision, the circulating nurse calls the time-out; all activity stops and all team
          members take part.</p></li>
          <li><p>The team confirms aloud the patient, the procedure, the site and mark, the position, the consent,
          prophylactic antibiotics, implants and the fire risk, and each member states agreement.</p></li>
          <li><p>A new time-out is held before each further procedure or site, and when the person performing the
          procedure changes.</p></li>
          <li><p>The circulating nurse documents the time-out, with the names of the participants, in the
          record.</p></li>
          </ol>
          <h3>Sign-out</h3>
          <ol>
          <li><p>Before the patient leaves the room, the team confirms the procedure performed, instrument, sponge and
          needle counts, specimen labels and any equipment problems.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Surgeons and proceduralists</strong>: mark the site and take part in the time-out.</p></li>
          <li><p><strong>Circulating nurses</strong>: lead the time-out and document it.</p></li>
          <li><p><strong>{{perioperative_department}}</strong>: observes at least {{audit_sample}} time-outs each
          month and reports compliance to the surgical services committee.</p></li>
          <li><p><strong>{{title_cmo}}</strong>: owns this policy with the {{title_cno}} and reviews it at least every
          {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.51(b), surgical services: delivery of service.</p></li>
          <li><p>42 CFR 482.13(c), patient rights: privacy and safety, including care in a safe setting.</p></li>
          <li><p>42 CFR 482.51(b)(2): "A properly executed informed consent form for the operation must be in the
          patient's chart before surgery, except in emergencies."</p></li>
          <li><p>World Health Organization, Surgical Safety Checklist.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: Universal Protocol standards UP.01.01.01, UP.01.02.01 and
          UP.01.03.01.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Surgical Services (SS) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on surgical services.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on surgical services.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'marking_method',
        label: 'Site mark',
        type: 'select',
        required: true,
        default: "the proceduralist's initials",
        help: 'What the site mark is. It must be unambiguous; never use an X.',
        options: ["the proceduralist's initials", 'the word YES', "the word YES and the proceduralist's initials"],
      },
      {
        key: 'outside_or',
        label: 'Also applies outside the operating room',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Yes to include invasive procedures in radiology, endoscopy, catheterization and at the bedside.',
        options: [],
      },
      {
        key: 'perioperative_department',
        label: 'Department that audits time-outs',
        type: 'department',
        required: true,
        default: null,
        help: 'The department that observes time-outs and reports compliance (often Surgical Services or Quality).',
        options: [],
      },
      {
        key: 'audit_sample',
        label: 'Time-outs observed per month',
        type: 'number',
        required: true,
        default: 30,
        help: 'The minimum number of time-outs observed each month.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.51' },
      { framework: 'CMS-482', ref_id: '§482.51(b)' },
      { framework: 'CMS-482', ref_id: '§482.13(c)' },
    ],
  },
};
