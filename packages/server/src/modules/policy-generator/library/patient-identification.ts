import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const patientIdentification: LibraryTemplate = {
  code: 'patient-identification',
  body: {
    title: 'Patient Identification',
    category: 'Patient Safety',
    description:
      'Two identifiers before every medication, test, specimen, transfusion and procedure, with rules for ' +
      'wristbands, similar names, unidentified patients and newborns.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To make sure every patient at {{facility_name}} receives the care, medication, blood product, test or
          procedure intended for them, by identifying the patient reliably with two identifiers at every step.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All staff and practitioners who provide care, treatment or services, collect specimens, transport
          patients or handle patient information, in every inpatient{{#if has_outpatient}} and outpatient{{/if}}
          setting of {{facility_name}}.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Identifiers</strong>: the patient's full name and {{second_identifier}}. The room or bed
          number, location and diagnosis are never identifiers.</p></li>
          <li><p><strong>Active identification</strong>: asking the patient to state their full name and
          {{second_identifier}}, rather than asking them to confirm a name that is read to them.</p></li>
          <li><p><strong>Identification band</strong>: the wristband printed at registration showing the two
          identifiers{{#if uses_barcode_scanning}} and a barcode{{/if}}.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>Two identifiers are used and matched to the order, label, record or product:</p>
          <ul>
          <li><p>before giving medications, blood or blood components, or breast milk;</p></li>
          <li><p>before collecting specimens, which are labeled at the bedside in the presence of the patient;</p></li>
          <li><p>before tests, treatments, procedures and imaging, and before transport;</p></li>
          <li><p>when sharing information about the patient and at every hand-off.</p></li>
          </ul>
          <p>Every inpatient{{#if has_ed}} and emergency patient{{/if}} wears an identification band from registration
          until discharge. A band that is removed or unreadable is replaced before any further care.</p>
          <p>{{#if uses_barcode_scanning}}Barcode scanning of the band is used for medication administration, specimen
          collection and transfusion; scanning supports but does not replace active identification.{{/if}}</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Every encounter</h3>
          <ol>
          <li><p>Ask the patient to state their full name and {{second_identifier}}.</p></li>
          <li><p>Compare the answer with the identification band and with the order, medication administration record,
          label or product.</p></li>
          <li><p>When the patient cannot answer, compare the band with the record and, where possible, confirm with a
          family member or caregiver who knows the patient.</p></li>
          <li><p>Stop and resolve any mismatch before proceeding, and report it as a safety event.</p></li>
          </ol>
          <h3>Blood transfusion</h3>
          <ol>
          <li><p>At the bedside, two qualified staff members{{#if uses_barcode_scanning}}, or one qualified staff member
          using barcode verification,{{/if}} match the patient, the band, the blood product label and the order
          immediately before starting the transfusion.</p></li>
          </ol>
          <h3>Similar or identical names</h3>
          <ol>
          <li><p>When two patients on a unit have the same or similar names, place a name alert in the electronic
          record and on the whiteboard, avoid assigning them to the same room, and tell staff at hand-off.</p></li>
          </ol>
          <p>{{#if has_ed}}</p>
          <h3>Unidentified emergency patients</h3>
          <ol>
          <li><p>Register the patient under a temporary name: {{unidentified_naming}}, with a unique medical record
          number, and use these as the identifiers until the patient is identified.</p></li>
          <li><p>When identity is confirmed, health information management merges or corrects the record.</p></li>
          </ol>
          <p>{{/if}}</p>
          <p>{{#if has_ob}}</p>
          <h3>Newborns</h3>
          <ol>
          <li><p>Immediately after birth, before mother and baby are separated, place two matching bands on the
          newborn and a matching band on the mother (and the support person, if desired).</p></li>
          <li><p>Use a distinct newborn name that includes the mother's last name and sex, never "Baby Boy" alone.</p></li>
          <li><p>Match band numbers each time the baby is returned to the parent and at discharge.</p></li>
          </ol>
          <p>{{/if}}</p>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Registration staff</strong>: confirm identity, print and apply bands.</p></li>
          <li><p><strong>All caregivers</strong>: use two identifiers at every step and stop the line when identity is
          in doubt.</p></li>
          <li><p><strong>Unit leaders</strong>: observe identification practice and report compliance monthly.</p></li>
          <li><p><strong>{{title_quality}}</strong>: owns this policy, reviews identification-related safety events and
          reviews the policy at least every {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.13(c)(2), the right to receive care in a safe setting.</p></li>
          <li><p>42 CFR 482.23(c), preparation and administration of drugs.</p></li>
          <li><p>42 CFR 482.24(b), a medical record for each patient.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: National Patient Safety Goals NPSG.01.01.01 and
          NPSG.01.03.01.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Nursing Services (NS) and Medication Management (MM)
          chapters.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on patient identification.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on patient identification.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'second_identifier',
        label: 'Second identifier',
        type: 'select',
        required: true,
        default: 'date of birth',
        help: 'The identifier used with the full name.',
        options: ['date of birth', 'medical record number'],
      },
      {
        key: 'uses_barcode_scanning',
        label: 'Identification bands are barcode-scanned',
        type: 'boolean',
        required: false,
        default: true,
        help: 'Yes when bands carry a barcode scanned for medications, specimens and blood.',
        options: [],
      },
      {
        key: 'unidentified_naming',
        label: 'Temporary names for unidentified patients',
        type: 'text',
        required: true,
        default: 'the next unused name from the emergency department alias list',
        help: 'How unidentified emergency patients are named, e.g. "Trauma followed by a letter of the NATO alphabet".',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.13(c)' },
      { framework: 'CMS-482', ref_id: '§482.23(c)' },
      { framework: 'CMS-482', ref_id: '§482.24(b)' },
    ],
  },
};
