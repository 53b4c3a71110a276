import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const informedConsent: LibraryTemplate = {
  code: 'informed-consent',
  body: {
    title: 'Informed Consent',
    category: 'Administration',
    description:
      'Who obtains consent, what the discussion covers, what a properly executed consent form holds, and how ' +
      'capacity, representatives, emergencies, interpreters and refusals are handled.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To make sure that patients of {{facility_name}}, or their legally authorized representatives, receive the
          information they need to make decisions about their care, and that their consent or refusal is obtained and
          documented before treatment.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All practitioners who perform procedures or treatments that require written consent, and the nurses and
          staff who witness signatures, in every care area of {{facility_name}}.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Informed consent</strong>: a process of discussion between the practitioner and the patient,
          not only a signature, that ends in the patient's voluntary decision.</p></li>
          <li><p><strong>Legally authorized representative</strong>: a person allowed by {{facility_state}} law to
          decide for a patient who lacks capacity, such as a health care agent, guardian or surrogate in the order the
          law sets.</p></li>
          <li><p><strong>Procedures requiring written consent</strong>: surgery; procedures with anesthesia or moderate
          or deep sedation; transfusion of blood or blood products; invasive diagnostic and therapeutic procedures on
          the medical staff's list; chemotherapy and radiation therapy; and participation in research.</p></li>
          <li><p><strong>Emergency</strong>: a condition in which delay to obtain consent would seriously endanger the
          patient's life or health.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>The practitioner who will perform the procedure holds the consent discussion and may not delegate it.
          Nurses and other staff may witness the signature and answer general questions, but refer questions about
          the procedure back to the practitioner.</p>
          <p>The discussion covers, in words the patient understands:</p>
          <ul>
          <li><p>the diagnosis and the nature and purpose of the procedure;</p></li>
          <li><p>its material risks, expected benefits and likely recovery;</p></li>
          <li><p>reasonable alternatives, including no treatment, and their risks;</p></li>
          <li><p>who will perform it and whether residents, advanced practice providers or others will do important
          parts of it;</p></li>
          <li><p>the patient's right to refuse or withdraw consent at any time.</p></li>
          </ul>
          <p>A properly executed consent form names the hospital, the procedure and the responsible practitioner,
          states that the discussion took place, and carries the signature of the patient or representative with the
          date and time. A witness is required {{witness_rule}}.</p>
          <p>Consent remains valid for {{consent_valid_days}} days unless the patient's condition, the planned
          procedure or the patient's wishes change.</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <ol>
          <li><p>Assess whether the patient has capacity to decide. If not, identify the legally authorized
          representative and document why the patient cannot decide.</p></li>
          <li><p>When the patient prefers a language other than English or has a hearing or vision impairment, use a
          qualified interpreter through {{interpreter_access}}. Family members and minors do not interpret except in an
          emergency.</p></li>
          <li><p>Hold the discussion, then ask the patient to explain in their own words what will be done, why and
          the main risks (teach-back). Answer questions and repeat until understanding is shown.</p></li>
          <li><p>{{#if uses_e_consent}}Complete the electronic consent form on the facility device; the signature,
          date and time are captured in the medical record.{{/if}}{{#unless uses_e_consent}}Complete the paper consent
          form, have it signed, dated and timed, and scan it into the medical record.{{/unless}}</p></li>
          <li><p>For telephone consent from a representative, a second staff member listens to the call and both sign
          as witnesses.</p></li>
          <li><p>{{#if has_surgery}}Before surgery or anesthesia, the pre-procedure nurse confirms that the properly
          executed consent form is in the medical record and matches the scheduled procedure and site. The case does
          not start without it except in an emergency.{{/if}}</p></li>
          <li><p>{{#if has_ob}}For obstetric patients, discuss the possibility of operative or cesarean birth and blood
          transfusion early in labor or during prenatal care, while the patient can decide calmly.{{/if}}</p></li>
          <li><p>In an emergency, treatment may proceed without consent; the practitioner documents the nature of the
          emergency and why delay would endanger the patient.</p></li>
          <li><p>When a patient refuses, the practitioner explains the consequences, documents the informed refusal and
          offers alternatives; the patient is asked to sign the refusal form.</p></li>
          </ol>
          <p>Minors are treated with the consent of a parent or legal guardian unless {{facility_state}} law allows the
          minor to consent, for example as an emancipated minor or for specific services.</p>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Practitioners</strong>: hold and document the consent discussion.</p></li>
          <li><p><strong>Nurses</strong>: witness signatures, confirm the form is complete before the procedure and
          notify the practitioner of any doubt about understanding.</p></li>
          <li><p><strong>Health information management</strong>: audits consent forms monthly for completeness and
          reports results to the medical staff.</p></li>
          <li><p><strong>{{title_cmo}}</strong>: owns this policy with the {{title_risk}} and reviews it at least every
          {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.13(b)(2): "The patient or his or her representative (as allowed under State law) has the
          right to make informed decisions regarding his or her care."</p></li>
          <li><p>42 CFR 482.24(c)(4), properly executed informed consent forms in the medical record.</p></li>
          <li><p>42 CFR 482.51(b)(2): "A properly executed informed consent form for the operation must be in the
          patient's chart before surgery, except in emergencies."</p></li>
          <li><p>{{facility_state}} law on consent, capacity, surrogate decision makers and minors.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: standard RI.01.03.01 (informed consent).{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Patient Rights (PR) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on patient rights and informed consent.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on patient rights and informed consent.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'consent_valid_days',
        label: 'Days a consent stays valid',
        type: 'number',
        required: true,
        default: 30,
        help: 'How long a signed consent remains valid if nothing changes.',
        options: [],
      },
      {
        key: 'witness_rule',
        label: 'When a witness is required',
        type: 'select',
        required: true,
        default: 'for every signature',
        help: 'Your facility rule for witnessing consent signatures.',
        options: [
          'for every signature',
          'for telephone consent and for patients who sign with a mark',
          'only when state law requires it',
        ],
      },
      {
        key: 'interpreter_access',
        label: 'How interpreters are reached',
        type: 'text',
        required: true,
        default: 'the interpreter services line',
        help: 'For example "the interpreter services line (ext. 4321)" or "the video interpreter devices on each unit".',
        options: [],
      },
      {
        key: 'uses_e_consent',
        label: 'Electronic consent forms are used',
        type: 'boolean',
        required: false,
        default: false,
        help: 'Yes when consent is signed electronically; no when paper forms are signed and scanned.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.13(b)' },
      { framework: 'CMS-482', ref_id: '§482.24(c)' },
      { framework: 'CMS-482', ref_id: '§482.51(b)' },
    ],
  },
};
