import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const infectionPreventionProgram: LibraryTemplate = {
  code: 'infection-prevention-program',
  body: {
    title: 'Infection Prevention and Control Program',
    category: 'Infection Prevention',
    description:
      'How the hospital-wide infection prevention and control and antibiotic stewardship programs are organized, ' +
      'led, planned, measured and reported.',
    requires_flags: [],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To establish the infection prevention and control program and the antibiotic stewardship program of
          {{facility_name}}: their leadership, annual plan, surveillance, prevention activities, reporting and links
          to the quality program.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All departments, services and locations of {{facility_name}}, including contracted services, and all
          staff, medical staff, students, volunteers and visitors.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Healthcare-associated infection (HAI)</strong>: an infection that develops as a result of care
          and was not present or incubating on admission, as defined by the surveillance criteria in use.</p></li>
          <li><p><strong>Infection preventionist</strong>: the person or people appointed by the governing body to lead
          the program, qualified through education, training, experience or certification.</p></li>
          <li><p><strong>Infection control risk assessment (ICRA)</strong>: an assessment of the infection risk of
          construction, renovation or maintenance work and the precautions it requires.</p></li>
          <li><p><strong>Antibiotic stewardship</strong>: coordinated work to improve antibiotic prescribing so that
          patients receive the right drug, dose, route and duration.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <p>"The hospital must have active hospital-wide programs for the surveillance, prevention, and control of HAIs
          and other infectious diseases, and for the optimization of antibiotic use through stewardship."
          (42 CFR 482.42)</p>
          <ul>
          <li><p>The governing body appoints the infection preventionist on the recommendation of medical staff and
          nursing leadership, and appoints {{stewardship_leader}} as leader of the antibiotic stewardship
          program.</p></li>
          <li><p>The infection prevention and control committee, with medical staff, nursing, pharmacy, laboratory,
          environmental services, facilities and employee health members, meets {{committee_frequency}} and reports to
          the medical executive committee and the quality program.</p></li>
          <li><p>The program follows nationally recognized guidelines, chiefly those of the Centers for Disease Control
          and Prevention (CDC) and its Healthcare Infection Control Practices Advisory Committee.</p></li>
          <li><p>Infection problems and antibiotic use issues found by the programs are addressed together with the
          quality assessment and performance improvement program.</p></li>
          </ul>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Annual risk assessment and plan</h3>
          <ol>
          <li><p>Each year the infection preventionist assesses infection risks from the population served, the
          services offered, the community, past surveillance data and emerging threats, and writes a plan with
          measurable goals that the committee approves.</p></li>
          </ol>
          <h3>Surveillance and reporting</h3>
          <ol>
          <li><p>Conduct surveillance of HAIs and multidrug-resistant organisms using {{surveillance_system}}
          definitions, including catheter-associated urinary tract infections, <em>C. difficile</em> infections,
          MRSA bacteremia{{#if has_icu}}, central line-associated bloodstream infections and ventilator-associated
          events in intensive care{{/if}}{{#if has_surgery}}, surgical site infections for selected
          procedures{{/if}}{{#if has_dialysis}}, bloodstream infections and hepatitis B status of dialysis
          patients{{/if}}.</p></li>
          <li><p>Report HAI and acute respiratory illness data as CMS requires, and report notifiable diseases to the
          {{facility_state}} health department within the time state law sets.</p></li>
          <li><p>Feed results back to units monthly and to the committee at each meeting.</p></li>
          </ol>
          <h3>Prevention</h3>
          <ol>
          <li><p>Maintain policies on hand hygiene, standard and transmission-based precautions, isolation, cleaning and
          disinfection of the environment and equipment, reprocessing of instruments according to the manufacturer's
          instructions for use, safe injection practices and device insertion and maintenance bundles.</p></li>
          <li><p>With employee health, maintain immunization, tuberculosis screening and exposure management programs
          for staff.</p></li>
          <li><p>Complete an ICRA before construction or renovation, and review the water management program for
          <em>Legionella</em> and other waterborne pathogens.</p></li>
          </ol>
          <h3>Outbreaks and emerging threats</h3>
          <ol>
          <li><p>When cases exceed the expected rate, the infection preventionist confirms the cluster, notifies the
          {{title_cmo}}, the {{title_cno}} and public health as required, puts control measures in place and reports to
          the committee.</p></li>
          </ol>
          <h3>Antibiotic stewardship</h3>
          <ol>
          <li><p>The stewardship team reviews antibiotic use and resistance data, runs prospective audit and feedback or
          preauthorization for selected agents, and educates prescribers, reporting antibiotic use to the committee at
          each meeting.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Governing body</strong>: appoints the program leaders and ensures systems exist to track
          infection and antibiotic use activities.</p></li>
          <li><p><strong>{{title_infection_prevention}}</strong>: develops and carries out the infection prevention and
          control plan, policies, surveillance and training, and communicates with public health.</p></li>
          <li><p><strong>{{stewardship_leader}}</strong>: leads the antibiotic stewardship program and its reports.</p></li>
          <li><p><strong>All leaders and staff</strong>: follow infection prevention policies and report suspected
          infections and exposures.</p></li>
          </ul>
          <p>The {{title_infection_prevention}} reviews this policy at least every {{review_interval_months}} months and
          the plan every year.</p>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.42, infection prevention and control and antibiotic stewardship programs, including (e)
          acute respiratory illness data reporting.</p></li>
          <li><p>42 CFR 482.42(a), program organization and policies; 482.42(b), antibiotic stewardship program; 482.42(c), leadership responsibilities; 482.42(e), acute respiratory illness data reporting.</p></li>
          <li><p>CDC, Core Elements of Hospital Antibiotic Stewardship Programs.</p></li>
          <li><p>Occupational Safety and Health Administration, Bloodborne Pathogens Standard, 29 CFR 1910.1030.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: Infection Prevention and Control (IC) chapter and Medication
          Management standard MM.09.01.01.{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Infection Prevention and Control (IC) chapter.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on infection prevention and antibiotic
          stewardship.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on infection prevention and antibiotic
          stewardship.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}CMS State Operations Manual, Appendix A, as applied by the {{facility_state}}
          survey agency.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'stewardship_leader',
        label: 'Antibiotic stewardship leader',
        type: 'user',
        required: true,
        default: null,
        help: 'The person the governing body appointed to lead the antibiotic stewardship program.',
        options: [],
      },
      {
        key: 'committee_frequency',
        label: 'Committee meets',
        type: 'select',
        required: true,
        default: 'quarterly',
        help: 'How often the infection prevention and control committee meets.',
        options: ['monthly', 'every other month', 'quarterly'],
      },
      {
        key: 'surveillance_system',
        label: 'Surveillance definitions',
        type: 'text',
        required: true,
        default: 'CDC National Healthcare Safety Network (NHSN)',
        help: 'The surveillance definitions and reporting system the program uses.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.42' },
      { framework: 'CMS-482', ref_id: '§482.42(a)' },
      { framework: 'CMS-482', ref_id: '§482.42(b)' },
      { framework: 'CMS-482', ref_id: '§482.42(c)' },
      { framework: 'CMS-482', ref_id: '§482.42(e)' },
    ],
  },
};
