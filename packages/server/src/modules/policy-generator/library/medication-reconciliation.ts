import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const medicationReconciliation: LibraryTemplate = {
  code: 'medication-reconciliation',
  body: {
    title: 'Medication Reconciliation',
    category: 'Pharmacy',
    description:
      'Obtaining a best possible medication history and reconciling it at admission, transfer and discharge, with ' +
      'an accurate list for the patient and the next provider.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To prevent medication errors at transitions of care at {{facility_name}} by maintaining an accurate list of
          each patient's medications, comparing it with the medications ordered, resolving every discrepancy and
          communicating the result to the patient and the next provider.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All admitted and observation patients, and patients who move between levels of care.{{#if has_ed}} The
          emergency department starts the medication history for patients it admits.{{/if}}{{#if has_outpatient}}
          Outpatient clinics reconcile medications at each visit where a medication is started, changed or
          stopped.{{/if}} It applies to providers, nurses, pharmacists and pharmacy technicians.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Best possible medication history (BPMH)</strong>: a list of all medications the patient
          actually takes, built from an interview and at least one other reliable source.</p></li>
          <li><p><strong>Medication</strong>: prescription and over-the-counter drugs, vitamins, herbal and dietary
          supplements, inhalers, patches, eye and ear drops, injectables, samples and medications taken as
          needed.</p></li>
          <li><p><strong>Reconciliation</strong>: comparing the BPMH with the orders at a transition and deciding, for
          each medication, to continue, change, hold or stop it, with the reason recorded.</p></li>
          <li><p><strong>Unintentional discrepancy</strong>: a difference between the BPMH and the orders that the
          prescriber did not intend, such as an omission, a wrong dose or a duplicate.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>A BPMH is completed within {{history_hours}} hours of admission, and sooner for medications that are
          time-critical or high-alert.{{#if pharmacy_takes_history}} Trained pharmacy technicians or pharmacists
          obtain the history for admitted patients; nurses obtain it when pharmacy staff are not available.{{/if}}
          {{#unless pharmacy_takes_history}}The admitting nurse obtains the history, and pharmacists verify it for
          patients on ten or more medications or any high-alert medication.{{/unless}}</p>
          <p>Reconciliation is completed by the responsible prescriber at admission, at every transfer between levels
          of care and at discharge. Every unintentional discrepancy is resolved with the prescriber before the next
          dose is due.</p>
          <p>Each patient leaves with a written, reconciled medication list in plain language in the
          {{med_list_document}}, and the list is sent to the next provider of care.</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Admission</h3>
          <ol>
          <li><p>Interview the patient or caregiver with open questions ("What do you take for your heart? Anything
          you use only sometimes?"), using an interpreter when needed.</p></li>
          <li><p>Confirm the list with at least one other source: pharmacy fill history, medication bottles, the
          primary care list, prior records or the state prescription drug monitoring program.</p></li>
          <li><p>Record for each medication the name, dose, route, frequency, indication and the date and time of the
          last dose, and update allergies and reactions.{{#if has_pediatrics}} For children, record the weight and the
          dose in mg/kg.{{/if}}</p></li>
          <li><p>The prescriber reconciles each home medication against the admission orders and records the decision
          and reason.</p></li>
          <li><p>The pharmacist reviews the reconciliation during order verification and contacts the prescriber about
          any discrepancy.</p></li>
          </ol>
          <h3>Transfer</h3>
          <ol>
          <li><p>At each change in level of care{{#if has_icu}}, including transfer out of intensive care{{/if}}, the
          receiving prescriber reviews the active orders against the home list and the prior unit's orders, and stops
          medications specific to the previous setting that are no longer needed.</p></li>
          </ol>
          <h3>Discharge</h3>
          <ol>
          <li><p>The prescriber reconciles home and inpatient medications into one discharge list that marks each
          medication as new, changed, unchanged or stopped.</p></li>
          <li><p>The nurse reviews the list with the patient and caregiver, explains each change and confirms
          understanding with teach-back.</p></li>
          <li><p>The patient is told to keep the list with them, to share it at every visit and to discard old
          lists.</p></li>
          <li><p>The list is sent with the discharge information to the primary care provider or the receiving
          facility.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Prescribers</strong>: reconcile medications at each transition and document decisions.</p></li>
          <li><p><strong>Nurses</strong>: obtain or confirm the history, educate the patient and hand over the
          list.</p></li>
          <li><p><strong>Pharmacy</strong>: verify histories, resolve discrepancies and audit a sample of
          reconciliations each month for completeness and timeliness.</p></li>
          <li><p><strong>{{title_pharmacy}}</strong>: owns this policy, reports audit results to the pharmacy and
          therapeutics committee and reviews the policy at least every {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.23(c), preparation and administration of drugs.</p></li>
          <li><p>42 CFR 482.25(b), pharmaceutical services: delivery of services.</p></li>
          <li><p>42 CFR 482.43(b), transmission of the patient's necessary medical information at discharge.</p></li>
          <li><p>Agency for Healthcare Research and Quality, Medications at Transitions and Clinical Handoffs (MATCH)
          Toolkit.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: National Patient Safety Goal NPSG.03.06.01.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Medication Management (MM) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on pharmaceutical services.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on pharmaceutical services.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'history_hours',
        label: 'Hours to complete the medication history',
        type: 'number',
        required: true,
        default: 24,
        help: 'How soon after admission the best possible medication history must be complete.',
        options: [],
      },
      {
        key: 'pharmacy_takes_history',
        label: 'Pharmacy staff obtain admission histories',
        type: 'boolean',
        required: false,
        default: false,
        help: 'Yes when trained pharmacy technicians or pharmacists take the history; no when nurses do.',
        options: [],
      },
      {
        key: 'med_list_document',
        label: 'Name of the discharge document',
        type: 'text',
        required: true,
        default: 'After Visit Summary',
        help: 'What the discharge paperwork holding the medication list is called at your facility.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.23(c)' },
      { framework: 'CMS-482', ref_id: '§482.25(b)' },
      { framework: 'CMS-482', ref_id: '§482.43(b)' },
    ],
  },
};
