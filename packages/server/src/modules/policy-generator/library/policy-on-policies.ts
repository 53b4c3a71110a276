import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const policyOnPolicies: LibraryTemplate = {
  code: 'policy-on-policies',
  body: {
    title: 'Development, Approval and Review of Policies',
    category: 'Administration',
    description:
      'The policy on policies: format, numbering, ownership, approval routes, periodic review, communication, ' +
      'retirement and retention of policies and procedures.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To set out how policies and procedures of {{facility_name}} are written, approved, published, reviewed,
          revised and retired, so that staff always work from one current, approved version. This policy takes effect
          on {{effective_date|date}}.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All hospital-wide and departmental policies, procedures, protocols and guidelines of {{facility_name}}.
          Medical staff bylaws and rules and regulations follow the process in the bylaws.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Policy</strong>: a statement of the facility's position or rule on a subject and who must
          follow it. <strong>Procedure</strong>: the steps for carrying out a policy.</p></li>
          <li><p><strong>Hospital-wide policy</strong>: a policy that applies to more than one department.
          <strong>Departmental policy</strong>: one that applies only within a department.</p></li>
          <li><p><strong>Owner</strong>: the leader, named by title, accountable for the content and review of a
          policy. <strong>Approver</strong>: the person or committee whose approval makes it effective.</p></li>
          <li><p><strong>Substantive revision</strong>: a change to what staff must do. <strong>Minor revision</strong>:
          a change to wording, titles, references or format that does not change practice.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <ul>
          <li><p>The policy management system is the only official source. Printed or downloaded copies are
          uncontrolled and valid only on the day printed.</p></li>
          <li><p>Every policy uses the standard format (purpose, scope, definitions, policy, procedure,
          responsibilities, references) and is numbered by {{numbering_scheme}}.</p></li>
          <li><p>Every policy shows its owner, approver, effective date and last review date.</p></li>
          <li><p>Every policy is reviewed at least every {{review_interval_months}} months, and sooner when laws,
          regulations, accreditation standards, evidence, services or safety events require.</p></li>
          <li><p>Hospital-wide policies take precedence over departmental ones; where a policy conflicts with law or
          regulation, the law or regulation governs and the owner corrects the policy at once.</p></li>
          <li><p>Standing orders, order sets and protocols are approved by the medical staff and by nursing and
          pharmacy leadership before use.</p></li>
          <li><p>{{#if board_approves_all}}All hospital-wide policies are approved by the governing body after
          committee review.{{/if}}{{#unless board_approves_all}}The governing body approves the policies that law,
          regulation or the bylaws reserve to it, and delegates approval of others as this policy
          describes.{{/unless}}</p></li>
          <li><p>Retired and superseded versions are kept for {{retention_years}} years after retirement, or longer
          where {{facility_state}} law or a legal hold requires.</p></li>
          </ul>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>New policies and substantive revisions</h3>
          <ol>
          <li><p>The owner drafts the policy in the standard template and checks it against current regulations,
          accreditation standards and related policies.</p></li>
          <li><p>The draft is circulated to affected departments{{#if has_outpatient}}, including outpatient
          locations{{/if}}, for comment for at least two weeks.</p></li>
          <li><p>The {{policy_committee}} reviews hospital-wide policies for consistency, clarity and conflicts.
          Clinical policies also go to the relevant committee: nursing practice, pharmacy and therapeutics, infection
          prevention or the medical executive committee.</p></li>
          <li><p>The approver approves the policy and sets the effective date, allowing time for education when
          practice changes.</p></li>
          <li><p>The policy is published, the superseded version is archived and affected staff are notified and asked
          to acknowledge that they have read it.</p></li>
          </ol>
          <h3>Periodic review and minor revisions</h3>
          <ol>
          <li><p>The system reminds the owner 60 days before the review date.</p></li>
          <li><p>If nothing needs to change, the owner records the review and the approver re-approves it. Minor
          revisions need only the approver; substantive revisions follow the full route above.</p></li>
          <li><p>Overdue policies are reported monthly to the {{policy_committee}} and to the owner's executive.</p></li>
          </ol>
          <h3>Urgent changes and retirement</h3>
          <ol>
          <li><p>When patient or staff safety requires, the {{title_ceo}}, {{title_cno}} or {{title_cmo}} may approve an
          interim change effective at once, valid for up to 90 days while the normal route is completed.</p></li>
          <li><p>A policy no longer needed is retired with the approver's agreement, and references to it in other
          policies are updated.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Owners</strong>: keep their policies accurate, reviewed on time and known to staff.</p></li>
          <li><p><strong>{{policy_committee}}</strong>: oversees the process, reviews hospital-wide policies and
          monitors overdue reviews.</p></li>
          <li><p><strong>{{title_quality}}</strong>: owns this policy{{#if policy_coordinator}}, with
          {{policy_coordinator}} coordinating the policy management system{{/if}}, and reviews it at least every
          {{review_interval_months}} months.</p></li>
          <li><p><strong>All staff</strong>: follow current policies and use only the policy management system as
          the source.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.12, governing body: "There must be an effective governing body that is legally responsible
          for the conduct of the hospital."</p></li>
          <li><p>42 CFR 482.12(a), the governing body's responsibilities for the medical staff, including approving its bylaws, rules and regulations.</p></li>
          <li><p>42 CFR 482.22(c), medical staff bylaws and rules.</p></li>
          <li><p>42 CFR 482.24(c)(3), conditions for standing orders, order sets and protocols.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: Leadership (LD) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Governing Body (GB) and Quality Management System (QM) chapters,
          including ISO 9001 document control.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on governance and policies.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on governance and policies.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}{{facility_state}} hospital licensing rules on policies and record
          retention.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'effective_date',
        label: 'Effective date',
        type: 'date',
        required: true,
        default: null,
        help: 'The date this policy takes effect.',
        options: [],
      },
      {
        key: 'numbering_scheme',
        label: 'Numbering scheme',
        type: 'select',
        required: true,
        default: 'department prefix and sequence number (for example NUR-012)',
        help: 'How policies are numbered.',
        options: [
          'department prefix and sequence number (for example NUR-012)',
          'chapter and sequence number (for example 04.012)',
          'a single sequence number',
        ],
      },
      {
        key: 'policy_committee',
        label: 'Policy committee',
        type: 'text',
        required: true,
        default: 'Policy and Procedure Committee',
        help: 'The committee that oversees policies.',
        options: [],
      },
      {
        key: 'retention_years',
        label: 'Years to keep retired versions',
        type: 'number',
        required: true,
        default: 10,
        help: 'How long retired and superseded versions are kept; check state law and your record retention schedule.',
        options: [],
      },
      {
        key: 'board_approves_all',
        label: 'Governing body approves every hospital-wide policy',
        type: 'boolean',
        required: false,
        default: false,
        help: 'Yes if your board approves all hospital-wide policies; no if it delegates approval.',
        options: [],
      },
      {
        key: 'policy_coordinator',
        label: 'Policy coordinator',
        type: 'user',
        required: false,
        default: null,
        help: 'Optional: the person who runs the policy management system day to day.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.12' },
      { framework: 'CMS-482', ref_id: '§482.12(a)' },
      { framework: 'CMS-482', ref_id: '§482.22(c)' },
      { framework: 'CMS-482', ref_id: '§482.24(c)' },
    ],
  },
};
