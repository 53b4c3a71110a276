import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const restraintSeclusion: LibraryTemplate = {
  code: 'restraint-seclusion',
  body: {
    title: 'Restraint and Seclusion',
    category: 'Nursing',
    description:
      'When restraint or seclusion may be used, time-limited orders, the one-hour face-to-face evaluation, ' +
      'monitoring, training and death reporting under 42 CFR 482.13(e) to (g).',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To protect the rights, dignity and safety of patients at {{facility_name}} by limiting restraint and
          seclusion to situations where they are needed to keep the patient, staff or others physically safe, and by
          applying, monitoring and ending them safely.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All patients in all care areas of {{facility_name}}, whatever their age, and all staff who order, apply,
          monitor or evaluate restraint or seclusion. It does not cover devices used for routine care, listed under
          Definitions, or handcuffs and other restraints applied by law enforcement for custody.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Physical restraint</strong>: any manual method, physical or mechanical device, material or
          equipment that immobilizes or reduces the patient's ability to move arms, legs, body or head freely. It does
          not include orthopedic devices, surgical dressings, protective helmets, or holding a patient briefly for a
          routine examination or test.</p></li>
          <li><p><strong>Drug used as a restraint</strong>: a medication used to manage behavior or restrict movement
          that is not a standard treatment or dosage for the patient's condition.</p></li>
          <li><p><strong>Seclusion</strong>: the involuntary confinement of a patient alone in a room or area that the
          patient is physically prevented from leaving; used only for violent or self-destructive behavior.</p></li>
          <li><p><strong>Violent or self-destructive restraint</strong>: restraint used for behavior that jeopardizes
          the immediate physical safety of the patient, staff or others. <strong>Non-violent restraint</strong>: restraint
          used for other reasons, usually to protect medical devices or treatment.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>"All patients have the right to be free from restraint or seclusion, of any form, imposed as a means of
          coercion, discipline, convenience, or retaliation by staff." (42 CFR 482.13(e))</p>
          <ul>
          <li><p>Restraint or seclusion is used only when less restrictive interventions have been judged ineffective,
          uses the least restrictive effective method, and ends at the earliest possible time, whatever the time left
          on the order.</p></li>
          <li><p>Each use needs an order from a physician or other licensed practitioner permitted by state law and the
          medical staff to order it. Standing and as-needed (PRN) orders are never used. When the attending physician
          did not give the order, they are consulted as soon as possible.</p></li>
          <li><p>Orders for violent or self-destructive behavior last at most 4 hours for adults 18 and over, 2 hours
          for ages 9 to 17 and 1 hour under 9. They may be renewed within those limits for up to 24 hours; after 24
          hours a physician or licensed practitioner sees and assesses the patient before a new order.</p></li>
          <li><p>Non-violent restraint orders are renewed {{nonviolent_renewal}}, after the prescriber has assessed the
          patient.</p></li>
          <li><p>Only staff trained and found competent apply, monitor or assess restraint and seclusion.</p></li>
          </ul>
          <p>{{#if has_psych}}</p>
          <p>Seclusion is used only in the designated seclusion rooms of the inpatient psychiatric unit. A patient in
          both restraint and seclusion is continually monitored face to face by trained staff, or by audio and video
          equipment with trained staff right next to the room.</p>
          <p>{{/if}}</p>
          <p>{{#unless has_psych}}</p>
          <p>Seclusion is not used at {{facility_name}}. Patients whose violent behavior cannot otherwise be managed
          safely are kept under constant observation while transfer to an appropriate setting is arranged.</p>
          <p>{{/unless}}</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Starting</h3>
          <ol>
          <li><p>Try and record less restrictive measures first: de-escalation, reorientation, family presence,
          treating pain or hypoxia, covering lines, sitters.</p></li>
          <li><p>In an emergency a trained registered nurse may start restraint and obtains the order during the
          application or within minutes after it.</p></li>
          <li><p>Apply the device following the manufacturer's instructions, tied to the bed frame with quick-release
          ties, never to side rails. Explain to the patient why and what must happen for removal.</p></li>
          <li><p>For violent or self-destructive behavior, a physician, licensed practitioner{{#if rn_face_to_face}}, or
          a registered nurse or physician assistant trained for it,{{/if}} sees the patient face to face within one
          hour, evaluating the situation, the patient's reaction, the medical and behavioral condition and whether to
          continue.{{#if rn_face_to_face}} A nurse or physician assistant who performs it consults the attending
          physician as soon as possible afterwards.{{/if}}</p></li>
          </ol>
          <h3>Monitoring</h3>
          <ol>
          <li><p>Violent or self-destructive: check the patient at least every {{violent_monitoring_minutes}} minutes.
          Non-violent: at least every two hours.</p></li>
          <li><p>Each check covers circulation, skin, breathing, vital signs as indicated, hydration, nutrition,
          toileting, range of motion, comfort, mental status and readiness for release.</p></li>
          <li><p>Release as soon as the criteria are met; a later episode needs a new order.</p></li>
          <li><p>After release from violent restraint or seclusion, debrief with the patient and staff and update the
          care plan.</p></li>
          </ol>
          <h3>Documentation and death reporting</h3>
          <ol>
          <li><p>Record the behavior or condition that required the intervention, alternatives tried, the order, the
          face-to-face evaluation, each check, the patient's response and the time of release.</p></li>
          <li><p>Report to the {{title_risk}} at once any death while in restraint or seclusion, within 24 hours after
          release, or within one week after release where it is reasonable to assume the intervention contributed. Deaths are reported to CMS
          by the close of business on the next business day; deaths with only soft, two-point wrist restraints and no
          seclusion are entered in the internal log within seven days instead. The date and time of the report are
          recorded in the medical record.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Ordering practitioners</strong>: give time-limited orders and assess patients as
          required.</p></li>
          <li><p><strong>Registered nurses</strong>: start, monitor and end restraint and seclusion and document each
          episode.</p></li>
          <li><p><strong>{{education_department}}</strong>: trains staff before they take part, during orientation and
          at least every year, covering de-escalation, safe application, monitoring, first aid and CPR.</p></li>
          <li><p><strong>{{title_quality}}</strong>: reviews restraint and seclusion use by unit each quarter and
          reports trends to the quality program.</p></li>
          <li><p><strong>{{title_cno}}</strong>: owns this policy and reviews it at least every
          {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.13(e), restraint or seclusion; 482.13(f), staff training requirements; 482.13(g), death
          reporting requirements.</p></li>
          <li><p>CMS State Operations Manual, Appendix A, interpretive guidelines for 42 CFR 482.13.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: standards PC.03.05.01 through PC.03.05.19.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Patient Rights (PR) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on patient rights, restraint and seclusion.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on patient rights, restraint and seclusion.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}{{facility_state}} laws and regulations on restraint, seclusion and
          involuntary treatment.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'nonviolent_renewal',
        label: 'Renewal of non-violent restraint orders',
        type: 'select',
        required: true,
        default: 'each calendar day',
        help: 'CMS leaves the renewal interval for non-violent restraint to hospital policy.',
        options: ['each calendar day', 'every 24 hours', 'every shift'],
      },
      {
        key: 'violent_monitoring_minutes',
        label: 'Check interval for violent restraint (minutes)',
        type: 'number',
        required: true,
        default: 15,
        help: 'How often staff check a patient in restraint or seclusion for violent or self-destructive behavior.',
        options: [],
      },
      {
        key: 'rn_face_to_face',
        label: 'Trained nurses may do the one-hour evaluation',
        type: 'boolean',
        required: false,
        default: true,
        help: 'CMS allows a trained registered nurse or physician assistant to perform the face-to-face evaluation.',
        options: [],
      },
      {
        key: 'education_department',
        label: 'Department that delivers the training',
        type: 'department',
        required: true,
        default: null,
        help: 'The department responsible for restraint and seclusion training and competency (often Education).',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.13(e)' },
      { framework: 'CMS-482', ref_id: '§482.13(f)' },
      { framework: 'CMS-482', ref_id: '§482.13(g)' },
    ],
  },
};
