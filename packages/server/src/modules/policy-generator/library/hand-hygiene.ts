import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const handHygiene: LibraryTemplate = {
  code: 'hand-hygiene',
  body: {
    title: 'Hand Hygiene',
    category: 'Infection Prevention',
    description:
      'When and how staff clean their hands, the WHO five moments, glove use, nail rules and how compliance is ' +
      'observed, reported and improved.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To prevent the transmission of infection to patients, visitors and staff of {{facility_name}} by setting
          out when and how hand hygiene is performed, and how compliance is measured and improved.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>This policy applies to everyone who works in or provides services at {{facility_name}}: employees, medical
          staff, advanced practice providers, students, contracted and agency staff and volunteers, in every inpatient
          {{#if has_outpatient}}and outpatient {{/if}}care area and in support areas where patients or their
          surroundings are touched.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Hand hygiene</strong>: cleaning hands with an alcohol-based hand rub or with soap and water.</p></li>
          <li><p><strong>Alcohol-based hand rub (ABHR)</strong>: a facility-approved waterless product containing 60% to
          95% alcohol.</p></li>
          <li><p><strong>Patient zone</strong>: the patient and the immediate surroundings they touch or that are
          touched during care: bed rails, bedside table, monitors, call light and linens.</p></li>
          <li><p><strong>Surgical hand antisepsis</strong>: antiseptic hand scrub or surgical hand rub performed by the
          surgical team before donning sterile gown and gloves.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>Staff perform hand hygiene at each of the five moments for hand hygiene described by the World Health
          Organization:</p>
          <ol>
          <li><p>Before touching a patient.</p></li>
          <li><p>Before a clean or aseptic procedure, including handling an invasive device.</p></li>
          <li><p>After a risk of exposure to body fluids, including after removing gloves.</p></li>
          <li><p>After touching a patient.</p></li>
          <li><p>After touching the patient's surroundings, even when the patient was not touched.</p></li>
          </ol>
          <p>ABHR is the preferred method when hands are not visibly soiled. Soap and water are used when hands are
          visibly soiled, before eating, after using the restroom, and when caring for patients with known or suspected
          <em>Clostridioides difficile</em> or norovirus infection.</p>
          <p>Gloves do not replace hand hygiene. Staff with direct patient contact do not wear artificial nails,
          extenders or gel overlays, and keep natural nail tips shorter than one quarter inch.</p>
          <p>The facility's target for hand hygiene compliance is {{compliance_target}}% or better in every unit.</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Hand rub</h3>
          <ol>
          <li><p>Apply enough product to cover all surfaces of both hands.</p></li>
          <li><p>Rub palms, backs of hands, between fingers, thumbs and fingertips until the hands are dry (about 20
          seconds). Do not wipe off the product.</p></li>
          </ol>
          <h3>Soap and water</h3>
          <ol>
          <li><p>Wet hands with clean running water and apply soap.</p></li>
          <li><p>Lather all surfaces of the hands and wrists for at least 20 seconds, rinse, and dry thoroughly with a
          single-use towel.</p></li>
          <li><p>Turn off the faucet with the towel.</p></li>
          </ol>
          <p>{{#if has_surgery}}</p>
          <h3>Surgical hand antisepsis</h3>
          <ol>
          <li><p>Remove jewelry, clean under the nails and perform surgical scrub or surgical hand rub with an approved
          product for the time stated in the manufacturer's instructions for use.</p></li>
          </ol>
          <p>{{/if}}</p>
          <h3>Monitoring and feedback</h3>
          <ol>
          <li><p>Compliance is monitored by: {{observation_method}}. Each inpatient unit collects at least
          {{observations_per_unit}} observations per month across disciplines, shifts and the five moments.</p></li>
          <li><p>Observers record the moment, the discipline and whether hand hygiene was performed, and give
          just-in-time coaching when it was missed.</p></li>
          <li><p>Infection prevention reports compliance by unit and discipline monthly to unit leaders and quarterly to
          the infection prevention and control committee and the quality program.</p></li>
          <li><p>A unit below the target for two consecutive months prepares an improvement plan with infection
          prevention.</p></li>
          <li><p>{{#if invite_patient_reminders}}Patients and families are told on admission that they may ask any
          caregiver whether they have cleaned their hands, and staff thank them for asking.{{/if}}</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>All staff</strong>: perform hand hygiene at every indicated moment and remind colleagues when
          a moment is missed.</p></li>
          <li><p><strong>Unit leaders</strong>: ensure ABHR and soap dispensers are stocked and working, review unit
          results with staff and act on missed targets.</p></li>
          <li><p><strong>{{title_infection_prevention}}</strong>: {{#if hh_lead}}with {{hh_lead}} as hand hygiene
          program lead, {{/if}}trains observers, validates data, reports results and selects approved products.</p></li>
          <li><p><strong>Facilities management</strong>: places ABHR dispensers in line with fire safety
          requirements.</p></li>
          </ul>
          <p>The {{title_infection_prevention}} reviews this policy at least every {{review_interval_months}} months,
          and sooner when guidelines change.</p>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.42(a), Infection prevention and control program organization and policies.</p></li>
          <li><p>42 CFR 482.42(c), leadership responsibilities of the infection preventionist and the governing body.</p></li>
          <li><p>Centers for Disease Control and Prevention, Guideline for Hand Hygiene in Health-Care Settings.</p></li>
          <li><p>World Health Organization, Guidelines on Hand Hygiene in Health Care.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: National Patient Safety Goal NPSG.07.01.01 and the
          Infection Prevention and Control (IC) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Infection Prevention and Control (IC) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on infection prevention and control.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on infection prevention and control.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'compliance_target',
        label: 'Compliance target (%)',
        type: 'number',
        required: true,
        default: 90,
        help: 'The hand hygiene compliance rate each unit aims for on observation.',
        options: [],
      },
      {
        key: 'observation_method',
        label: 'How compliance is monitored',
        type: 'select',
        required: true,
        default: 'direct observation by trained observers',
        help: 'Choose the method the facility uses to measure compliance.',
        options: [
          'direct observation by trained observers',
          'an electronic hand hygiene monitoring system',
          'direct observation and an electronic monitoring system',
        ],
      },
      {
        key: 'observations_per_unit',
        label: 'Observations per unit per month',
        type: 'number',
        required: true,
        default: 30,
        help: 'The minimum number of hand hygiene opportunities observed on each inpatient unit every month.',
        options: [],
      },
      {
        key: 'invite_patient_reminders',
        label: 'Invite patients to remind staff',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Adds a step telling patients and families they may ask caregivers to clean their hands.',
        options: [],
      },
      {
        key: 'hh_lead',
        label: 'Hand hygiene program lead',
        type: 'user',
        required: false,
        default: null,
        help: 'The person who runs observer training and reporting, if not the infection prevention lead.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.42' },
      { framework: 'CMS-482', ref_id: '§482.42(a)' },
      { framework: 'CMS-482', ref_id: '§482.42(c)' },
    ],
  },
};
