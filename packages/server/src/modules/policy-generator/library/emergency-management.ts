import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const emergencyManagement: LibraryTemplate = {
  code: 'emergency-management',
  body: {
    title: 'Emergency Management Program',
    category: 'Emergency Management',
    description:
      'The all-hazards emergency preparedness program: hazard vulnerability analysis, emergency operations plan, ' +
      'policies, communication plan, training and exercises, and emergency power.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To describe how {{facility_name}} prepares for, responds to and recovers from emergencies and disasters,
          so that it can keep patients, staff and visitors safe and continue to provide care when normal operations are
          disrupted.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All departments, locations and staff of {{facility_name}}, its {{bed_count}} licensed beds, contracted
          services and volunteers, for emergencies of any kind: natural, technological, human-caused and infectious
          disease.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>All-hazards approach</strong>: planning built around the capabilities needed for any
          emergency rather than separate plans for each event.</p></li>
          <li><p><strong>Hazard vulnerability analysis (HVA)</strong>: a facility-based and community-based risk
          assessment that ranks hazards by probability, impact and preparedness.</p></li>
          <li><p><strong>Emergency operations plan (EOP)</strong>: the plan that sets out how the facility organizes
          its response, based on the HVA.</p></li>
          <li><p><strong>Hospital Incident Command System (HICS)</strong>: the incident management structure the
          facility uses to command and coordinate a response.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>{{facility_name}} maintains an emergency preparedness program that meets 42 CFR 482.15 and has four core
          elements:</p>
          <ol>
          <li><p><strong>Emergency plan</strong>, based on an all-hazards HVA that includes emerging infectious
          diseases, the patient population, services to continue during an emergency, delegations of authority and
          succession plans.</p></li>
          <li><p><strong>Policies and procedures</strong> for subsistence of patients and staff, alternate energy
          sources, tracking patients and on-duty staff, evacuation, sheltering in place, medical records, volunteers,
          arrangements with other providers and an alternate care site.</p></li>
          <li><p><strong>Communication plan</strong> with current contacts for staff, practitioners, other facilities,
          volunteers and emergency management officials, primary and backup means of communication, and how patient
          information is shared in line with HIPAA.</p></li>
          <li><p><strong>Training and testing program</strong> based on the plan, the HVA, the policies and the
          communication plan.</p></li>
          </ol>
          <p>The EOP was last approved on {{plan_approval_date|date}}. The program, the HVA and the EOP are reviewed and
          updated at least every two years, and whenever an exercise or a real event shows a need.</p>
          <p>{{#if coalition_name}}{{facility_name}} participates in {{coalition_name}} and coordinates its plans with
          local, regional and state emergency management officials.{{/if}}{{#unless coalition_name}}{{facility_name}}
          coordinates its plans with local, regional and state emergency management officials.{{/unless}}</p>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Activation</h3>
          <ol>
          <li><p>The administrator on call or the most senior leader on site activates the EOP, takes the role of
          incident commander and announces the activation by overhead page and mass notification.</p></li>
          <li><p>The command center opens in {{command_center_location}}. Command roles are assigned from the HICS job
          action sheets.</p></li>
          <li><p>The incident commander sets objectives for each operational period, and the planning section
          tracks patients, staff, beds, supplies and utilities.</p></li>
          </ol>
          <h3>Special populations</h3>
          <ol>
          <li><p>{{#if has_icu}}Intensive care patients on ventilators or infusions are evacuated with portable
          equipment and a nurse assigned to each patient.{{/if}}</p></li>
          <li><p>{{#if has_ob}}Newborns are evacuated with their mothers where possible, with identification bands
          checked at departure and arrival.{{/if}}</p></li>
          <li><p>{{#if has_psych}}Psychiatric patients are moved with an escort and kept in a secure area.{{/if}}</p></li>
          <li><p>{{#if has_dialysis}}Dialysis patients are linked with other dialysis providers so that treatment is not
          missed.{{/if}}</p></li>
          <li><p>Patients who depend on power, oxygen or mobility aids are identified by each unit at activation.</p></li>
          </ol>
          <h3>Training and exercises</h3>
          <ol>
          <li><p>New staff receive emergency preparedness training at orientation, and all staff at least every two
          years, with records kept.</p></li>
          <li><p>Two exercises are held each year: one full-scale exercise, community-based or, when that is not
          available, facility-based functional; and one additional exercise, which may be a second full-scale or
          functional exercise, a mock drill, a tabletop exercise or a workshop. A real activation may stand in for the
          full-scale exercise that year.</p></li>
          <li><p>After each exercise or real event, an after-action report lists what went well, what did not and the
          corrective actions, with owners and dates, and the program is updated.</p></li>
          </ol>
          <h3>Emergency power</h3>
          <ol>
          <li><p>Facilities management inspects, tests and maintains the emergency generators and transfer switches as
          the life safety and health care facilities codes require, and keeps enough fuel on site to run them during an
          extended outage.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>{{title_ceo}}</strong>: ensures the program has the resources and authority it needs.</p></li>
          <li><p><strong>{{title_emergency}}</strong>: leads the program, the HVA, the EOP, the exercises and
          after-action reports, and chairs the emergency management committee.</p></li>
          <li><p><strong>{{em_department}}</strong>: keeps emergency supplies, the command center and contact lists
          ready.</p></li>
          <li><p><strong>Department leaders</strong>: keep department plans current and make sure staff know their
          roles.</p></li>
          <li><p><strong>All staff</strong>: know the emergency codes, their role and how to report to work in an
          emergency.</p></li>
          </ul>
          <p>This policy is reviewed at least every {{review_interval_months}} months, in addition to the program
          reviews above.</p>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.15, emergency preparedness, and CMS State Operations Manual, Appendix Z.</p></li>
          <li><p>42 CFR 482.41(b), life safety from fire.</p></li>
          <li><p>42 CFR 482.41(a)(1): "There must be emergency power and lighting in at least the operating, recovery,
          intensive care, and emergency rooms, and stairwells."</p></li>
          <li><p>NFPA 99, Health Care Facilities Code; NFPA 101, Life Safety Code; NFPA 110, Standard for Emergency and
          Standby Power Systems.</p></li>
          <li><p>Hospital Incident Command System guidebook; ASPR TRACIE resources.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: Emergency Management (EM) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Physical Environment (PE) chapter, emergency management
          requirements.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on emergency preparedness.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on emergency preparedness.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}{{facility_state}} emergency management and hospital licensing
          requirements.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'plan_approval_date',
        label: 'EOP last approved on',
        type: 'date',
        required: true,
        default: null,
        help: 'The date the emergency operations plan was last approved by leadership.',
        options: [],
      },
      {
        key: 'command_center_location',
        label: 'Command center location',
        type: 'text',
        required: true,
        default: 'the administration conference room',
        help: 'Where the hospital command center opens; name a backup location in the EOP.',
        options: [],
      },
      {
        key: 'coalition_name',
        label: 'Healthcare coalition',
        type: 'text',
        required: false,
        default: '',
        help: 'The regional healthcare coalition the facility belongs to, if any.',
        options: [],
      },
      {
        key: 'em_department',
        label: 'Department that keeps emergency readiness',
        type: 'department',
        required: true,
        default: null,
        help: 'The department that maintains supplies, the command center and contact lists (often Facilities or Safety).',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.41' },
      { framework: 'CMS-482', ref_id: '§482.41(a)' },
      { framework: 'CMS-482', ref_id: '§482.41(b)' },
    ],
  },
};
