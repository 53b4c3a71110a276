import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const incidentReporting: LibraryTemplate = {
  code: 'incident-reporting',
  body: {
    title: 'Patient Safety Event Reporting',
    category: 'Patient Safety',
    description:
      'What to report, how and how fast, immediate actions, review and root cause analysis, disclosure and external ' +
      'reporting, within a just culture.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To make it easy and safe for everyone at {{facility_name}} to report patient safety events, near misses
          and unsafe conditions, so that they are reviewed, their causes understood and actions taken to prevent
          harm.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All staff, medical staff, students, contractors and volunteers of {{facility_name}}, for events involving
          patients, visitors or the care environment. Staff injuries are reported through employee health.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Patient safety event</strong>: an event, incident or condition that could have resulted or did
          result in harm to a patient.</p></li>
          <li><p><strong>Adverse event</strong>: a patient safety event that reached the patient and caused harm.
          <strong>No-harm event</strong>: one that reached the patient without harm.</p></li>
          <li><p><strong>Near miss (good catch)</strong>: an event that did not reach the patient because it was caught
          in time or by chance.</p></li>
          <li><p><strong>Unsafe condition</strong>: a circumstance that increases the chance of an event, such as a
          broken alarm or look-alike packaging.</p></li>
          <li><p><strong>Serious safety event</strong>: an event that results in death, permanent harm or severe
          temporary harm and is not primarily related to the natural course of the patient's illness.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>Everyone who is involved in or discovers a patient safety event, near miss or unsafe condition reports it
          in {{reporting_system}} before the end of the shift and within {{report_within_hours}} hours at most.
          {{#if anonymous_reporting}}Reports may be made anonymously.{{/if}}</p>
          <p>{{facility_name}} follows just culture principles: people are not disciplined for honest mistakes or for
          reporting. Reckless behavior and deliberate harm are handled through the usual performance processes.</p>
          <p>Safety event reports are confidential quality documents. They are not filed in or mentioned in the medical
          record, which holds only the clinical facts of what happened and the care given.</p>
          <p>Patients and families are told of adverse events that reach them in an honest, timely conversation led by
          the responsible practitioner with support from risk management.</p>
          <p>{{#if pso_name}}Reports are collected within the facility's patient safety evaluation system and shared
          with {{pso_name}}, a listed patient safety organization, as patient safety work product.{{/if}}</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>When an event happens</h3>
          <ol>
          <li><p>Make the patient safe, give the care needed and notify the responsible practitioner.</p></li>
          <li><p>Keep equipment, devices, tubing, packaging, labels and medications involved, and do not change
          settings; hand them to the manager or biomedical engineering.</p></li>
          <li><p>Tell the charge nurse or manager. For death or serious harm, notify the {{title_risk}} at once, through
          the administrator on call after hours.</p></li>
          <li><p>Enter the report with objective facts: what happened, where, when, who was involved by role, and what
          was done. Avoid blame and opinion.</p></li>
          <li><p>Document clinical facts in the medical record without mentioning the report.</p></li>
          </ol>
          <h3>Review</h3>
          <ol>
          <li><p>The manager of the area reviews each report within three business days, takes immediate actions and
          gives feedback to the reporter.</p></li>
          <li><p>Risk management and quality grade the harm and triage serious events. Each serious safety event
          receives a root cause analysis by an interdisciplinary team, completed with an action plan within
          {{rca_days}} days.</p></li>
          <li><p>Actions favor strong system fixes (forcing functions, standardization, automation) over training
          alone, and their effect is measured.</p></li>
          </ol>
          <h3>External reporting</h3>
          <ol>
          <li><p>The {{title_risk}} reports events to the {{facility_state}} agencies as state law requires, to the FDA
          and manufacturers for device-related deaths and serious injuries, and to CMS for deaths associated with
          restraint or seclusion.</p></li>
          <li><p>{{#if accreditor_tjc}}Sentinel events are managed under The Joint Commission's Sentinel Event
          Policy.{{/if}}</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>All staff</strong>: report events and near misses and take part in reviews.</p></li>
          <li><p><strong>Managers</strong>: review reports promptly, act, and share lessons with staff.</p></li>
          <li><p><strong>{{title_risk}}</strong>: manages serious events, disclosure support and external
          reporting.</p></li>
          <li><p><strong>{{title_quality}}</strong>: owns this policy, analyzes trends and reports them with root cause
          analysis results to the quality program and governing body, and reviews the policy at least every
          {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.21(c)(2): "Performance improvement activities must track medical errors and adverse patient
          events, analyze their causes, and implement preventive actions and mechanisms that include feedback and
          learning throughout the hospital."</p></li>
          <li><p>42 CFR 482.21(a), program scope: indicators that improve health outcomes and identify and reduce medical errors.</p></li>
          <li><p>42 CFR 482.23(c)(5) and 482.25(b)(6), reporting of drug errors, adverse drug reactions and transfusion
          reactions.</p></li>
          <li><p>Patient Safety and Quality Improvement Act of 2005 and 42 CFR part 3.</p></li>
          <li><p>Agency for Healthcare Research and Quality, Communication and Optimal Resolution (CANDOR)
          toolkit.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: Sentinel Event Policy and standard LD.03.09.01.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Quality Management System (QM) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on quality and patient safety.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on quality and patient safety.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}{{facility_state}} adverse event reporting requirements.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'reporting_system',
        label: 'Reporting system',
        type: 'text',
        required: true,
        default: 'the electronic safety event reporting system',
        help: 'What staff use to file reports, for example the name of your reporting software.',
        options: [],
      },
      {
        key: 'report_within_hours',
        label: 'Report within (hours)',
        type: 'number',
        required: true,
        default: 24,
        help: 'The latest time after an event by which a report must be filed.',
        options: [],
      },
      {
        key: 'anonymous_reporting',
        label: 'Anonymous reports are accepted',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Yes when the reporting system allows anonymous reports.',
        options: [],
      },
      {
        key: 'rca_days',
        label: 'Days to complete a root cause analysis',
        type: 'number',
        required: true,
        default: 45,
        help: 'Time from awareness of a serious safety event to a completed analysis and action plan.',
        options: [],
      },
      {
        key: 'pso_name',
        label: 'Patient safety organization',
        type: 'text',
        required: false,
        default: '',
        help: 'The listed patient safety organization (PSO) the facility reports to, if any; leave empty if none.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.21' },
      { framework: 'CMS-482', ref_id: '§482.21(a)' },
      { framework: 'CMS-482', ref_id: '§482.21(c)' },
      { framework: 'CMS-482', ref_id: '§482.23(c)' },
      { framework: 'CMS-482', ref_id: '§482.25(b)' },
    ],
  },
};
