import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const painManagement: LibraryTemplate = {
  code: 'pain-management',
  body: {
    title: 'Pain Assessment and Management',
    category: 'Nursing',
    description:
      'Pain assessment with age- and condition-appropriate scales, multimodal treatment, reassessment, opioid ' +
      'sedation monitoring and safe opioid use at discharge.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To assess and treat pain at {{facility_name}} safely and effectively, with goals set together with the
          patient, while reducing the risks of opioid therapy.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All patients{{#if has_ed}}, including emergency department patients,{{/if}} and all practitioners,
          nurses and pharmacists involved in assessing pain or prescribing, dispensing or giving analgesics.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Comprehensive pain assessment</strong>: location, intensity, quality, onset and duration,
          what makes it better or worse, effect on function and sleep, and the patient's goal.</p></li>
          <li><p><strong>Multimodal analgesia</strong>: combining medications with different actions (for example
          acetaminophen, NSAIDs, regional anesthesia and opioids) and non-drug measures to improve relief and lower
          opioid doses.</p></li>
          <li><p><strong>Pasero Opioid-induced Sedation Scale (POSS)</strong>: a five-level scale used to detect
          sedation before respiratory depression from opioids.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>Patients are screened for pain on admission, each shift and whenever they report pain. A positive screen
          leads to a comprehensive assessment using a scale that fits the patient:</p>
          <ul>
          <li><p>Adults who can self-report: the {{adult_scale}}.</p></li>
          <li><p>Adults with advanced dementia: the PAINAD scale.</p></li>
          <li><p>{{#if has_icu}}Critically ill patients who cannot self-report: the Critical-Care Pain Observation
          Tool (CPOT).{{/if}}</p></li>
          <li><p>{{#if has_pediatrics}}Children: the FLACC scale under age 3 or when non-verbal, and the Wong-Baker
          FACES scale from age 3.{{/if}}</p></li>
          <li><p>{{#if has_ob}}Newborns: the Neonatal Infant Pain Scale (NIPS).{{/if}}</p></li>
          </ul>
          <p>The care plan states a realistic, function-based goal agreed with the patient. Treatment is multimodal
          and includes non-drug measures such as positioning, ice or heat, early mobility, relaxation and music.</p>
          <p>Opioids are prescribed at the lowest effective dose for the shortest time. Patients at higher risk of
          opioid-induced respiratory depression (sleep apnea, opioid-naive after surgery, advanced age, kidney or lung
          disease, concurrent sedatives) receive continuous pulse oximetry or capnography.</p>
          <p>Before prescribing a controlled substance at discharge, the prescriber checks the {{facility_state}}
          prescription drug monitoring program as state law requires.</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <ol>
          <li><p>Assess pain and set the goal with the patient; record score, scale and goal.</p></li>
          <li><p>Before each opioid dose, assess sedation with POSS. Hold the opioid and notify the prescriber at POSS
          3; at POSS 4 stop the opioid, stimulate the patient, give naloxone per protocol and call the rapid response
          team.</p></li>
          <li><p>Reassess pain and sedation within {{reassess_iv_minutes}} minutes after intravenous and within
          {{reassess_oral_minutes}} minutes after oral analgesics, and after every non-drug intervention.</p></li>
          <li><p>Notify the prescriber when pain is not controlled after two interventions or when side effects
          limit treatment.</p></li>
          <li><p>{{#if uses_pca}}For patient-controlled analgesia, two registered nurses independently verify the
          order, drug, concentration and pump settings at start, at every change and at handover. Only the patient may
          press the button; family and staff may not. Use pharmacy-standard concentrations only.{{/if}}</p></li>
          <li><p>At discharge, teach the patient and family how to take the analgesics, the signs of oversedation,
          not to combine opioids with alcohol or sedatives, and how to store and dispose of unused opioids safely;
          confirm understanding with teach-back. Offer naloxone to patients at high risk of overdose.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Prescribers</strong>: order multimodal plans, choose safe opioid doses and check the
          prescription drug monitoring program.</p></li>
          <li><p><strong>Nurses</strong>: assess and reassess pain and sedation, give treatment and educate
          patients.</p></li>
          <li><p><strong>Pharmacists</strong>: review opioid orders for dose, duplication and interactions and
          maintain standard concentrations.</p></li>
          <li><p>{{#if pain_lead}}<strong>{{pain_lead}}</strong>: leads pain and opioid stewardship work and reports
          naloxone use and oversedation events.{{/if}}</p></li>
          <li><p><strong>{{title_cno}}</strong>: owns this policy with the {{title_pharmacy}}, monitors naloxone use and
          oversedation events and reviews the policy at least every {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.13(b), the patient's right to take part in care planning.</p></li>
          <li><p>42 CFR 482.23(b)(4), nursing care plan; 42 CFR 482.23(c), administration of drugs.</p></li>
          <li><p>42 CFR 482.25(b), pharmaceutical services: delivery of services.</p></li>
          <li><p>Centers for Disease Control and Prevention, Clinical Practice Guideline for Prescribing Opioids for
          Pain, 2022.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: standards LD.04.03.13 and PC.01.02.07.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Nursing Services (NS) and Medication Management (MM)
          chapters.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on pain management.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on pain management.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'adult_scale',
        label: 'Adult self-report scale',
        type: 'select',
        required: true,
        default: '0 to 10 numeric rating scale',
        help: 'The scale used for adults who can rate their own pain.',
        options: ['0 to 10 numeric rating scale', 'Defense and Veterans Pain Rating Scale', 'Wong-Baker FACES scale'],
      },
      {
        key: 'reassess_iv_minutes',
        label: 'Reassess after IV doses (minutes)',
        type: 'number',
        required: true,
        default: 30,
        help: 'Time after an intravenous analgesic within which pain and sedation are reassessed.',
        options: [],
      },
      {
        key: 'reassess_oral_minutes',
        label: 'Reassess after oral doses (minutes)',
        type: 'number',
        required: true,
        default: 60,
        help: 'Time after an oral analgesic within which pain and sedation are reassessed.',
        options: [],
      },
      {
        key: 'uses_pca',
        label: 'Patient-controlled analgesia is used',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Adds the PCA safety step.',
        options: [],
      },
      {
        key: 'pain_lead',
        label: 'Pain and opioid stewardship lead',
        type: 'user',
        required: false,
        default: null,
        help: 'Optional: the person who leads pain and opioid stewardship work.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.13(b)' },
      { framework: 'CMS-482', ref_id: '§482.23(b)' },
      { framework: 'CMS-482', ref_id: '§482.23(c)' },
      { framework: 'CMS-482', ref_id: '§482.25(b)' },
    ],
  },
};
