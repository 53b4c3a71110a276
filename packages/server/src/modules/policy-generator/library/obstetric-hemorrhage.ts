import { html } from './html.js';
import type { LibraryTemplate } from './types.js';

export const obstetricHemorrhage: LibraryTemplate = {
  code: 'obstetric-hemorrhage',
  body: {
    title: 'Obstetric Hemorrhage',
    category: 'Women and Newborn Services',
    description:
      'Hemorrhage risk assessment, quantitative blood loss, staged response, massive transfusion, drills and case ' +
      'review for obstetric units.',
    requires_flags: ['has_ob'],
    sections: [
      {
        key: 'purpose',
        html: html`
          <p>To recognize and treat obstetric hemorrhage early and consistently at {{facility_name}}, so that every
          patient receives a coordinated, staged response and preventable maternal harm is avoided.</p>`,
      },
      {
        key: 'scope',
        html: html`
          <p>All pregnant and postpartum patients up to six weeks after birth, on the labor and delivery and postpartum
          units{{#if has_ed}} and in the emergency department{{/if}}, and the nurses, obstetric providers,
          anesthesia, blood bank and pharmacy staff who care for them.</p>`,
      },
      {
        key: 'definitions',
        html: html`
          <ul>
          <li><p><strong>Postpartum hemorrhage</strong>: cumulative blood loss of 1,000 mL or more, or blood loss
          with signs or symptoms of hypovolemia, within 24 hours of birth, whatever the route of birth.</p></li>
          <li><p><strong>Quantitative blood loss (QBL)</strong>: blood loss measured by weighing soaked items and
          reading calibrated collection devices, rather than estimated visually.</p></li>
          <li><p><strong>Hemorrhage cart</strong>: a stocked cart with supplies, instruments and a checklist for
          hemorrhage, kept at {{hemorrhage_cart_location}}.</p></li>
          </ul>`,
      },
      {
        key: 'policy',
        html: html`
          <ul>
          <li><p>Every patient is assessed for hemorrhage risk with the {{ob_risk_tool}} on admission, before birth and
          on transfer to postpartum care. Blood bank orders follow the risk level: a hold clot for low risk, type and
          screen for medium risk, type and crossmatch of two units for high risk.</p></li>
          <li><p>Blood loss is measured quantitatively for every birth and recorded cumulatively.</p></li>
          <li><p>Uterotonic medications for the first response are available on the unit at all times, and the
          hemorrhage cart is checked every shift.</p></li>
          <li><p>The massive transfusion protocol can be activated by any member of the team.</p></li>
          <li><p>Unit teams hold multidisciplinary hemorrhage drills {{drill_frequency}}, and staff complete
          hemorrhage education at hire and every year.</p></li>
          <li><p>Patients are taught the warning signs of postpartum hemorrhage before discharge and told whom to
          call.</p></li>
          </ul>`,
      },
      {
        key: 'procedure',
        html: html`
          <h3>Stage 1: blood loss over 500 mL vaginal or 1,000 mL cesarean, or changed vital signs</h3>
          <ol>
          <li><p>Call for help: charge nurse, obstetric provider and anesthesia. Ensure IV access with a large-bore
          catheter.</p></li>
          <li><p>Massage the fundus, empty the bladder, increase the oxytocin infusion and give a second uterotonic
          from the hemorrhage order set, checking contraindications (no methylergonovine with hypertension).</p></li>
          <li><p>Measure vital signs and QBL every 5 to 15 minutes and prepare two units of red cells.</p></li>
          </ol>
          <h3>Stage 2: continued bleeding, total under 1,500 mL</h3>
          <ol>
          <li><p>Give further uterotonics (carboprost unless the patient has asthma, or misoprostol) and tranexamic acid
          1 g intravenously within three hours of birth, as ordered.</p></li>
          <li><p>Start a second IV, transfuse as ordered, bring the hemorrhage cart, consider a uterine balloon and move
          to the operating room as needed.</p></li>
          </ol>
          <h3>Stage 3: over 1,500 mL, more than two units transfused, unstable vital signs or suspected coagulopathy</h3>
          <ol>
          <li><p>Activate the massive transfusion protocol and notify the blood bank.</p></li>
          <li><p>Proceed to definitive surgical management{{#if has_icu}} and arrange intensive care admission{{/if}},
          with a team member assigned to keep the family informed.</p></li>
          </ol>
          <h3>After the event</h3>
          <ol>
          <li><p>Hold a team debrief after every stage 2 or 3 hemorrhage.</p></li>
          <li><p>Cases with {{review_units}} or more units of blood products transfused or admission to intensive care
          are reviewed by the perinatal quality committee.</p></li>
          </ol>`,
      },
      {
        key: 'responsibilities',
        html: html`
          <ul>
          <li><p><strong>Obstetric nurses and providers</strong>: assess risk, measure blood loss and lead the staged
          response.</p></li>
          <li><p><strong>Anesthesia, blood bank and pharmacy</strong>: respond to calls and keep products and
          medications ready.</p></li>
          <li><p><strong>Unit leaders</strong>: run drills and education, keep the cart stocked and track hemorrhage
          cases{{#if ob_champion}}, with {{ob_champion}} as hemorrhage champion{{/if}}.</p></li>
          <li><p><strong>{{title_cno}}</strong> and <strong>{{title_cmo}}</strong>: own this policy and review it at
          least every {{review_interval_months}} months.</p></li>
          </ul>`,
      },
      {
        key: 'references',
        html: html`
          <ul>
          <li><p>42 CFR 482.23(c)(4): "Blood transfusions and intravenous medications must be administered in
          accordance with State law and approved medical staff policies and procedures."</p></li>
          <li><p>42 CFR 482.23(b), nursing staffing and delivery of care; 42 CFR 482.21(c), program activities: tracking adverse events, analysing their causes and acting to prevent them.</p></li>
          <li><p>American College of Obstetricians and Gynecologists, Practice Bulletin on Postpartum
          Hemorrhage.</p></li>
          <li><p>Alliance for Innovation on Maternal Health (AIM), Obstetric Hemorrhage patient safety bundle.</p></li>
          <li><p>California Maternal Quality Care Collaborative, Obstetric Hemorrhage Toolkit.</p></li>
          <li><p>{{#if accreditor_tjc}}The Joint Commission: standard PC.06.01.01 (maternal hemorrhage).{{/if}}</p></li>
          <li><p>{{#if accreditor_dnv}}DNV NIAHO: Nursing Services (NS) and Quality Management System (QM)
          chapters.{{/if}}</p></li>
          <li><p>{{#if accreditor_achc}}ACHC hospital standards on obstetric services.{{/if}}</p></li>
          <li><p>{{#if accreditor_cihq}}CIHQ hospital standards on obstetric services.{{/if}}</p></li>
          <li><p>{{#if accreditor_state}}{{facility_state}} perinatal and maternal care regulations.{{/if}}</p></li>
          </ul>`,
      },
    ],
    variables: [
      {
        key: 'ob_risk_tool',
        label: 'Hemorrhage risk tool',
        type: 'select',
        required: true,
        default: 'AWHONN postpartum hemorrhage risk assessment',
        help: 'The tool used to assess hemorrhage risk.',
        options: [
          'AWHONN postpartum hemorrhage risk assessment',
          'CMQCC hemorrhage risk factor assessment',
          'facility-developed hemorrhage risk assessment',
        ],
      },
      {
        key: 'hemorrhage_cart_location',
        label: 'Hemorrhage cart location',
        type: 'text',
        required: true,
        default: 'the labor and delivery unit',
        help: 'Where the hemorrhage cart is kept, for example "the labor and delivery clean utility room".',
        options: [],
      },
      {
        key: 'drill_frequency',
        label: 'Drill frequency',
        type: 'select',
        required: true,
        default: 'at least twice a year',
        help: 'How often multidisciplinary hemorrhage drills are held.',
        options: ['every quarter', 'at least twice a year', 'at least once a year'],
      },
      {
        key: 'review_units',
        label: 'Units transfused that trigger review',
        type: 'number',
        required: true,
        default: 4,
        help: 'Cases with this many units of blood products or more are reviewed by the perinatal quality committee.',
        options: [],
      },
      {
        key: 'ob_champion',
        label: 'Hemorrhage champion',
        type: 'user',
        required: false,
        default: null,
        help: 'Optional: the clinician who leads hemorrhage drills and case tracking.',
        options: [],
      },
    ],
    standards: [
      { framework: 'CMS-482', ref_id: '§482.23(b)' },
      { framework: 'CMS-482', ref_id: '§482.23(c)' },
      { framework: 'CMS-482', ref_id: '§482.21(c)' },
    ],
  },
};
