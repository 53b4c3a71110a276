import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const fallPrevention: LibraryTemplate = {
  code: 'fall-prevention',
  body: {
    title: 'Fall Prevention and Post-Fall Management',
    category: 'Nursing',
    description:
      'Fall risk screening with a validated tool, universal and high-risk precautions, and what staff do after a ' +
      'patient falls.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To reduce patient falls and injuries from falls at {{facility_name}} by assessing every patient's risk
          with a validated tool, applying precautions that match that risk, and responding consistently when a fall
          occurs.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All inpatient units{{#if has_ed}}, the emergency department{{/if}}{{#if has_outpatient}}, outpatient
          clinics{{/if}} and procedural areas of {{facility_name}}, and all staff who care for or transport
          patients.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Fall</strong>: an unplanned descent to the floor or another lower surface, with or without
          injury, including a fall in which staff lower the patient (an assisted fall).</p></li>
          <li><p><strong>Fall with injury</strong>: a fall that results in any injury, graded as minor (dressing, ice,
          limb elevation), moderate (sutures, splinting), major (surgery, casting, neurological or internal injury) or
          death.</p></li>
          <li><p><strong>High fall risk</strong>: a score of {{high_risk_score}} or more on the {{risk_tool}}, or
          clinical judgment that the patient is at high risk regardless of score.</p></li>
          <li><p><strong>Purposeful rounding</strong>: a scheduled visit in which staff check pain, toileting,
          position and that personal items and the call light are within reach.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>Every patient is screened for fall risk with the {{risk_tool}} on admission, at the start of each shift,
          after a transfer between units, after a change in condition or a procedure with sedation, and after any
          fall.{{#if has_pediatrics}} Patients under 18 are screened with the Humpty Dumpty Falls Scale.{{/if}}</p>
          <p>Universal fall precautions apply to every patient. Patients at high risk receive additional, individualized
          interventions that are recorded in the nursing care plan and shared at every hand-off.</p>
          <p>Patients at higher risk of serious injury (age 85 or over, osteoporosis or prior fracture, anticoagulant
          therapy, recent surgery) are identified in the care plan whatever their fall risk score.</p>
          <p>Patients and families are taught the patient's risk and the precautions, and asked to call for help before
          getting up; understanding is confirmed with teach-back.</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Universal precautions (every patient)</h3>
          <ol>
          <li><p>Orient the patient to the room, bathroom and call light.</p></li>
          <li><p>Keep the bed in the lowest position with the wheels locked, the call light, phone, glasses and
          personal items within reach, and the path to the bathroom clear and lit.</p></li>
          <li><p>Provide non-slip footwear when the patient is out of bed.</p></li>
          <li><p>Round on the patient {{rounding_interval}}.</p></li>
          </ol>
          <h3>High-risk precautions</h3>
          <ol>
          <li><p>Identify the patient as high risk at the door and on the whiteboard, and report the risk at every
          hand-off.</p></li>
          <li><p>Offer toileting on a schedule and stay within arm's reach while a high-risk patient is in the
          bathroom.</p></li>
          <li><p>{{#if uses_bed_alarms}}Activate the bed or chair exit alarm whenever the patient is in bed or in the
          chair and confirm it at each rounding visit.{{/if}}</p></li>
          <li><p>Use a gait belt and the appropriate assistive device for transfers and ambulation; request a physical
          therapy evaluation when mobility is impaired.</p></li>
          <li><p>Ask the pharmacist to review medications that raise fall risk (sedatives, opioids, antipsychotics,
          antihypertensives, diuretics, hypoglycemics).</p></li>
          <li><p>Consider a low bed, floor mats and a room close to the nurses' station.</p></li>
          </ol>
          <h3>After a fall</h3>
          <ol>
          <li><p>Stay with the patient and call for help. Do not move the patient until a registered nurse has checked
          for injury; use a lift device when the patient cannot rise safely.</p></li>
          <li><p>Assess vital signs, injury, pain and level of consciousness. Start neurological checks when the fall
          was unwitnessed, the head was struck or the patient takes anticoagulants.</p></li>
          <li><p>Notify the responsible provider and, with the patient's permission, the family.</p></li>
          <li><p>Hold a post-fall huddle with the staff on duty before the end of the shift to find out why the fall
          happened and what will prevent another.</p></li>
          <li><p>Document the event and assessment in the medical record, file a safety event report, reassess fall
          risk and update the care plan.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Registered nurses</strong>: assess risk, plan interventions, teach patients and families,
          and lead the post-fall assessment and huddle.</p></li>
          <li><p><strong>All care staff</strong>: apply universal precautions, round as scheduled and respond to exit
          alarms and call lights.</p></li>
          <li><p><strong>Providers and pharmacists</strong>: review medications and conditions that raise fall risk
          and assess patients after a fall.</p></li>
          <li><p><strong>{{responsible_department}}</strong>: reports falls and falls with injury per 1,000 patient
          days by unit, reviews every fall with major injury, and reports trends to the quality program.</p></li>
          <li><p><strong>{{title_cno}}</strong>: owns this policy and reviews it at least every
          {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.13(c)(2): "The patient has the right to receive care in a safe setting."</p></li>
          <li><p>42 CFR 482.21(a), program scope: indicators that improve health outcomes and reduce medical errors, such as falls with injury.</p></li>
          <li><p>42 CFR 482.23(b)(4), nursing care plan for each patient.</p></li>
          <li><p>Agency for Healthcare Research and Quality, Preventing Falls in Hospitals: A Toolkit for Improving
          Quality of Care.</p></li>
          <li><p>Morse JM, Morse RM, Tylko SJ. Development of a scale to identify the fall-prone patient. Canadian
          Journal on Aging, 1989.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: standard PC.01.02.08 (fall risk).{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Nursing Services (NS) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on nursing services and patient safety.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on nursing services and patient safety.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'risk_tool',
        label: 'Fall risk tool',
        type: 'select',
        required: true,
        default: 'Morse Fall Scale',
        help: 'The validated tool nurses use to score adult fall risk.',
        options: ['Morse Fall Scale', 'Hendrich II Fall Risk Model', 'Johns Hopkins Fall Risk Assessment Tool'],
      },
      {
        key: 'high_risk_score',
        label: 'High-risk score',
        type: 'number',
        required: true,
        default: 45,
        help: 'Score at or above which a patient is high risk on the chosen tool (Morse 45, Hendrich II 5, Johns Hopkins 14).',
        options: [],
      },
      {
        key: 'rounding_interval',
        label: 'Rounding interval',
        type: 'select',
        required: true,
        default: 'every hour from 6 am to 10 pm and every two hours overnight',
        help: 'How often staff round on each patient.',
        options: ['every hour', 'every hour from 6 am to 10 pm and every two hours overnight', 'every two hours'],
      },
      {
        key: 'uses_bed_alarms',
        label: 'Bed and chair exit alarms are used',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Adds the step to activate exit alarms for high-risk patients.',
        options: [],
      },
      {
        key: 'responsible_department',
        label: 'Department that tracks falls',
        type: 'department',
        required: true,
        default: null,
        help: 'The department that reports fall rates and reviews falls with injury (often Quality or Nursing).',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.13(c)' },
      { framework: 'CMS-482', ref_id: '§482.23(b)' },
      { framework: 'CMS-482', ref_id: '§482.21(a)' },
    ],
  },
};
