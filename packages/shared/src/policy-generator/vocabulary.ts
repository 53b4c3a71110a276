import type { TemplateValue } from './render.js';

/**
 * The words of the policy generator (issue 12; DOMAIN.md 4.2): template sections, variable types, the facility
 * profile's service lines, accreditors and owner titles, and the names a profile lends every template.
 */

export const TEMPLATE_SECTIONS = [
  'purpose',
  'scope',
  'definitions',
  'policy',
  'procedure',
  'responsibilities',
  'references',
] as const;
export type TemplateSectionKey = (typeof TEMPLATE_SECTIONS)[number];
export const TEMPLATE_SECTION_TITLES: Record<TemplateSectionKey, string> = {
  purpose: 'Purpose',
  scope: 'Scope',
  definitions: 'Definitions',
  policy: 'Policy',
  procedure: 'Procedure',
  responsibilities: 'Responsibilities',
  references: 'References',
};

export const VARIABLE_TYPES = ['text', 'date', 'select', 'department', 'user', 'number', 'boolean'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];
export const VARIABLE_TYPE_LABELS: Record<VariableType, string> = {
  text: 'Text',
  date: 'Date',
  select: 'Choice from a list',
  department: 'Department',
  user: 'Person',
  number: 'Number',
  boolean: 'Yes / no',
};

/** Service lines a facility offers: each is a flag `has_{line}` templates can test. */
export const SERVICE_LINES = [
  'ed',
  'ob',
  'surgery',
  'icu',
  'psych',
  'pediatrics',
  'outpatient',
  'rehab',
  'dialysis',
] as const;
export type ServiceLine = (typeof SERVICE_LINES)[number];
export const SERVICE_LINE_LABELS: Record<ServiceLine, string> = {
  ed: 'Emergency department',
  ob: 'Obstetrics and newborn care',
  surgery: 'Surgical services',
  icu: 'Intensive care',
  psych: 'Inpatient psychiatry',
  pediatrics: 'Pediatrics',
  outpatient: 'Outpatient clinics',
  rehab: 'Inpatient rehabilitation',
  dialysis: 'Dialysis',
};

/** Who surveys the facility: each is a flag `accreditor_{code}`. */
export const ACCREDITORS = ['tjc', 'dnv', 'achc', 'cihq', 'state'] as const;
export type Accreditor = (typeof ACCREDITORS)[number];
export const ACCREDITOR_LABELS: Record<Accreditor, string> = {
  tjc: 'The Joint Commission',
  dnv: 'DNV',
  achc: 'ACHC (formerly HFAP)',
  cihq: 'CIHQ',
  state: 'State survey agency for CMS (no deeming accreditor)',
};

/** The titles of the people who own policies at this facility: each is a variable `title_{key}`. */
export const OWNER_TITLES = [
  'ceo',
  'cno',
  'cmo',
  'quality',
  'risk',
  'infection_prevention',
  'pharmacy',
  'privacy',
  'emergency',
] as const;
export type OwnerTitle = (typeof OWNER_TITLES)[number];
export const OWNER_TITLE_LABELS: Record<OwnerTitle, { label: string; example: string }> = {
  ceo: { label: 'Chief executive', example: 'Chief Executive Officer' },
  cno: { label: 'Chief nursing executive', example: 'Chief Nursing Officer' },
  cmo: { label: 'Chief medical executive', example: 'Chief Medical Officer' },
  quality: { label: 'Quality leader', example: 'Director of Quality and Patient Safety' },
  risk: { label: 'Risk manager', example: 'Risk Manager' },
  infection_prevention: { label: 'Infection prevention lead', example: 'Infection Preventionist' },
  pharmacy: { label: 'Pharmacy leader', example: 'Director of Pharmacy' },
  privacy: { label: 'Privacy officer', example: 'Privacy Officer' },
  emergency: { label: 'Emergency management lead', example: 'Emergency Management Coordinator' },
};

/** US states and territories (two letters), for the profile's state. */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'PR',
  'GU',
  'VI',
  'AS',
  'MP',
] as const;

/** The facility profile as the renderer needs it (the zod schema in schemas/policy-generator.ts is the contract). */
export interface ProfileValues {
  legal_name: string;
  short_name: string;
  address: string;
  state: string;
  bed_count: number | null;
  service_lines: readonly string[];
  accreditors: readonly string[];
  owner_titles: Readonly<Partial<Record<OwnerTitle, string>>>;
  default_review_interval_months: number;
}

/** Names every template may use, filled from the profile (a template's own variables may not reuse them). */
export const PROFILE_VARIABLES = [
  'facility_name',
  'facility_short_name',
  'facility_address',
  'facility_state',
  'bed_count',
  'review_interval_months',
  ...OWNER_TITLES.map((t) => `title_${t}` as const),
] as const;
export const PROFILE_FLAGS = [
  ...SERVICE_LINES.map((s) => `has_${s}` as const),
  ...ACCREDITORS.map((a) => `accreditor_${a}` as const),
] as const;
export const PROFILE_NAMES: ReadonlySet<string> = new Set<string>([...PROFILE_VARIABLES, ...PROFILE_FLAGS]);

export const PROFILE_NAME_LABELS: Record<string, string> = {
  facility_name: 'Legal name',
  facility_short_name: 'Short name',
  facility_address: 'Address',
  facility_state: 'State',
  bed_count: 'Licensed beds',
  review_interval_months: 'Review interval (months)',
  ...Object.fromEntries(OWNER_TITLES.map((t) => [`title_${t}`, `Title: ${OWNER_TITLE_LABELS[t].label}`])),
  ...Object.fromEntries(SERVICE_LINES.map((s) => [`has_${s}`, `Offers: ${SERVICE_LINE_LABELS[s]}`])),
  ...Object.fromEntries(ACCREDITORS.map((a) => [`accreditor_${a}`, `Surveyed by: ${ACCREDITOR_LABELS[a]}`])),
};

/**
 * The values a profile lends a template. Empty profile texts stay unresolved (absent) so the preview marks them and
 * the draft cannot go to review until someone fills them in; flags are always true or false.
 */
export function profileValues(profile: ProfileValues): Record<string, TemplateValue> {
  const values: Record<string, TemplateValue> = {};
  const text = (name: string, value: string | null | undefined) => {
    if (value?.trim()) values[name] = value.trim();
  };
  text('facility_name', profile.legal_name);
  text('facility_short_name', profile.short_name || profile.legal_name);
  text('facility_address', profile.address);
  text('facility_state', profile.state);
  if (profile.bed_count !== null) values.bed_count = profile.bed_count;
  values.review_interval_months = profile.default_review_interval_months;
  for (const t of OWNER_TITLES) text(`title_${t}`, profile.owner_titles[t]);
  for (const s of SERVICE_LINES) values[`has_${s}`] = profile.service_lines.includes(s);
  for (const a of ACCREDITORS) values[`accreditor_${a}`] = profile.accreditors.includes(a);
  return values;
}
