import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const hipaaPrivacy: LibraryTemplate = {
  code: 'hipaa-privacy',
  body: {
    title: 'Uses and Disclosures of Protected Health Information',
    category: 'Health Information Management',
    description:
      'When protected health information may be used or disclosed with and without authorization under the HIPAA ' +
      'Privacy Rule, minimum necessary, identity verification, patient access and reporting of suspected breaches.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To protect the privacy of patients of {{facility_name}} by setting out when protected health information
          (PHI) may be used or disclosed, how requests are verified and recorded, and how patients exercise their right
          of access, in line with the HIPAA Privacy Rule and {{facility_state}} law.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All members of the workforce of {{facility_name}}, including employees, medical staff, students and
          volunteers, and PHI in any form: electronic, paper and spoken. Business associates are bound by their
          business associate agreements.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Protected health information (PHI)</strong>: individually identifiable health information held
          or transmitted by the facility in any form.</p></li>
          <li><p><strong>Use</strong>: sharing or examining PHI within the facility. <strong>Disclosure</strong>:
          releasing or giving access to PHI outside the facility.</p></li>
          <li><p><strong>Treatment, payment and health care operations (TPO)</strong>: the purposes for which PHI may
          be used and disclosed without authorization under 45 CFR 164.506.</p></li>
          <li><p><strong>Authorization</strong>: a signed form meeting 45 CFR 164.508 that permits a use or disclosure
          not otherwise allowed.</p></li>
          <li><p><strong>Minimum necessary</strong>: limiting PHI to the least needed for the purpose.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>PHI is used and disclosed only as the Privacy Rule permits or requires and as the current Notice of
          Privacy Practices, effective {{npp_effective_date|date}}, describes. Where {{facility_state}} law is more
          protective, it is followed.</p>
          <ul>
          <li><p><strong>Without authorization</strong>: to the patient; for treatment, payment and health care
          operations; and for public-interest purposes under 45 CFR 164.512 such as disclosures required by law, public
          health reporting, reports of abuse or neglect, health oversight, court orders, limited law enforcement
          purposes, coroners and funeral directors, organ procurement, approved research and averting a serious threat
          to health or safety.</p></li>
          <li><p><strong>After the patient may agree or object</strong>: listing in the facility directory, sharing
          relevant information with family and friends involved in the patient's care, and disaster relief
          notification.</p></li>
          <li><p><strong>Only with authorization</strong>: marketing, sale of PHI, most uses of psychotherapy notes,
          and any other purpose not listed above.</p></li>
          </ul>
          <p>Workforce members access only the PHI they need for their job. The minimum necessary standard applies to
          all uses and disclosures except for treatment, to the patient, under an authorization or as required by
          law.</p>
          <p>Records with extra protection, such as substance use disorder treatment records covered by 42 CFR part 2
          and HIV, genetic and mental health information protected by {{facility_state}} law, are released only under
          those rules.</p>
          <p>Patients receive access to or copies of their records within {{access_days}} days of a request, in the
          form and format they ask for when readily producible, for a reasonable cost-based fee.</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Responding to a request for disclosure</h3>
          <ol>
          <li><p>Send requests from outside the care team to {{roi_department}}.</p></li>
          <li><p>Verify the identity and authority of the requester (photo identification, badge, letterhead, court
          order or proof of personal representative status) before releasing anything.</p></li>
          <li><p>Confirm the legal basis: permitted purpose, valid authorization, subpoena with satisfactory assurances,
          or court order.</p></li>
          <li><p>Release only the minimum necessary and send it securely.</p></li>
          <li><p>Record disclosures that must be included in an accounting of disclosures.</p></li>
          </ol>
          <h3>Suspected privacy incidents</h3>
          <ol>
          <li><p>Report any suspected impermissible use or disclosure at once to {{privacy_contact}}.</p></li>
          <li><p>The {{title_privacy}} investigates, contains the incident and completes a breach risk assessment.</p></li>
          <li><p>When a breach of unsecured PHI is confirmed, affected patients are notified without unreasonable delay
          and no later than 60 days after discovery, and HHS and, where required, the media are notified.</p></li>
          </ol>
          <p>{{#if allows_patient_email}}Patients who ask to receive their information by unencrypted email are told
          of the risk, and their choice is recorded before it is honored.{{/if}}</p>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>All workforce members</strong>: protect PHI, access only what their job requires, complete
          privacy training at hire and every year, and report concerns.</p></li>
          <li><p><strong>{{roi_department}}</strong>: processes requests for records and disclosures and keeps the
          accounting of disclosures.</p></li>
          <li><p><strong>{{title_privacy}}</strong>: owns this policy, handles complaints, investigates incidents,
          applies sanctions consistently and reviews the policy at least every {{review_interval_months}} months.</p></li>
          </ul>
          <p>No one is retaliated against for filing a privacy complaint or reporting a concern in good faith.</p>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>45 CFR 164.502 to 164.514 (uses and disclosures), 164.524 (access), 164.528 (accounting of
          disclosures), and 164.400 to 164.414 (breach notification).</p></li>
          <li><p>42 CFR 482.13(c), patient rights: privacy and safety.</p></li>
          <li><p>42 CFR part 2, confidentiality of substance use disorder patient records.</p></li>
          <li><p>42 CFR 482.13(d)(1): "The patient has the right to the confidentiality of his or her clinical
          records."</p></li>
          <li><p>42 CFR 482.24(b)(3), confidentiality and release of patient records.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: Information Management (IM) and Rights and Responsibilities
          of the Individual (RI) chapters.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Medical Records (MR) and Patient Rights (PR) chapters.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on medical records and patient rights.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on medical records and patient rights.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}{{facility_state}} medical records confidentiality laws.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'npp_effective_date',
        label: 'Notice of Privacy Practices effective date',
        type: 'date',
        required: true,
        default: null,
        help: 'The effective date printed on the current Notice of Privacy Practices.',
        options: [],
      },
      {
        key: 'access_days',
        label: 'Days to respond to access requests',
        type: 'number',
        required: true,
        default: 30,
        help: 'HIPAA allows at most 30 days (one 30-day extension with notice); use a shorter period if state law requires.',
        options: [],
      },
      {
        key: 'roi_department',
        label: 'Release of information department',
        type: 'department',
        required: true,
        default: null,
        help: 'The department that processes record requests (usually Health Information Management).',
        options: [],
      },
      {
        key: 'privacy_contact',
        label: 'How to reach the privacy office',
        type: 'text',
        required: true,
        default: 'the Privacy Office',
        help: 'For example "the Privacy Office (ext. 2200 or privacy@example.org)".',
        options: [],
      },
      {
        key: 'allows_patient_email',
        label: 'Patients may choose unencrypted email',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Adds the rule for patients who ask to receive information by unencrypted email.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.13(c)' },
      { framework: 'CMS-482', ref_id: '§482.13(d)' },
      { framework: 'CMS-482', ref_id: '§482.24(b)' },
    ],
  },
};
