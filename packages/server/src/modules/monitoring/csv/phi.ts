/**
 * Column names that look like patient identifiers (HIPAA Safe Harbor list, DOMAIN.md 1.4 "PHI guard"). Only a
 * patient-level dataset may hold such columns. The patterns read the header as lower-case words, so "Patient_Name",
 * "patient name" and "PatientName" all match, while aggregate columns ("Ward name", "Discharges") do not.
 */
const PATTERNS: { what: string; re: RegExp }[] = [
  {
    what: 'name',
    re: /^(?:(?:patient|first|last|given|family|middle|full|maiden|legal) ?name|name|surname|forename|patient)$/,
  },
  {
    what: 'medical record number',
    re: /\bmrn\b|medical ?rec(?:ord)?s?\b|\bpatient ?(?:id|identifier|number|no|num)\b|\bnhs ?(?:number|no)\b|\bchart ?(?:number|no|num)\b/,
  },
  { what: 'date of birth', re: /\bdob\b|\bbirth ?(?:date|day)\b|\bdate ?of ?birth\b|\bbirthdate\b/ },
  { what: 'social security number', re: /\bssn\b|\bsocial ?security\b/ },
  { what: 'address', re: /\baddress\b|\bstreet\b|\bzip\b|\bzip ?code\b|\bpost(?:al)? ?code\b/ },
  { what: 'phone number', re: /\b(?:tele)?phone\b|\bmobile\b|\bfax\b/ },
  { what: 'email address', re: /\be ?mail\b/ },
  {
    what: 'admission or discharge date',
    re: /\b(?:admission|admit|admitted|discharge|discharged) ?(?:date|time|datetime|dt)\b|\bdate ?of ?(?:admission|discharge)\b/,
  },
  { what: 'date of death', re: /\b(?:death|deceased) ?(?:date|time)\b|\bdate ?of ?death\b/ },
];

/** "PatientName" -> "patient name", "date_of-birth" -> "date of birth". */
function words(header: string): string {
  return header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** What kind of identifier a header names ("date of birth"), or null when it does not look like one. */
export function phiKind(header: string): string | null {
  const text = words(header);
  if (!text) return null;
  // "patientname", "dateofbirth": run the patterns on the header with and without spaces.
  for (const candidate of [text, text.replace(/ /g, '')]) {
    for (const { what, re } of PATTERNS) if (re.test(candidate)) return what;
  }
  return null;
}

export const phiReason = (kind: string) =>
  `Looks like a patient identifier (${kind}). Only a patient-level dataset may hold it; a monitoring admin can mark the dataset patient-level.`;
