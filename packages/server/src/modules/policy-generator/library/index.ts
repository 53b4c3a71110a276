import { emergencyManagement } from './emergency-management.js';
import { fallPrevention } from './fall-prevention.js';
import { handHygiene } from './hand-hygiene.js';
import { hipaaPrivacy } from './hipaa-privacy.js';
import { incidentReporting } from './incident-reporting.js';
import { infectionPreventionProgram } from './infection-prevention-program.js';
import { informedConsent } from './informed-consent.js';
import { medicationReconciliation } from './medication-reconciliation.js';
import { obstetricHemorrhage } from './obstetric-hemorrhage.js';
import { painManagement } from './pain-management.js';
import { patientIdentification } from './patient-identification.js';
import { policyOnPolicies } from './policy-on-policies.js';
import { restraintSeclusion } from './restraint-seclusion.js';
import type { LibraryTemplate } from './types.js';
import { universalProtocol } from './universal-protocol.js';

export type { LibraryTemplate } from './types.js';

/**
 * The edition of the built-in library. Raise it whenever a template's content changes, so that a deployment
 * publishes the changed templates as new versions of the same global templates (matched by code).
 */
export const LIBRARY_EDITION = 2;

/**
 * The built-in policy templates, in the order the gallery shows them: governance first, then patient safety,
 * infection prevention, medication and nursing care, privacy, emergency management and service-specific templates.
 */
export const LIBRARY: readonly LibraryTemplate[] = [
  policyOnPolicies,
  informedConsent,
  patientIdentification,
  incidentReporting,
  infectionPreventionProgram,
  handHygiene,
  medicationReconciliation,
  painManagement,
  fallPrevention,
  restraintSeclusion,
  hipaaPrivacy,
  emergencyManagement,
  universalProtocol,
  obstetricHemorrhage,
];
