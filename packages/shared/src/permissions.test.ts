import { describe, expect, it } from 'vitest';
import {
  isAllowed,
  isPermissionSection,
  MAIN_ROLES,
  PERMISSION_APPS,
  PERMISSION_SECTIONS,
  type PermissionRule,
  permissionKey,
} from './schemas/permissions.js';

const rules: PermissionRule[] = [
  { path: 'csv-import', allowed_roles: ['Monitoring_Admin', 'data_entry'] },
  { path: 'locked', allowed_roles: [] },
  { path: 'broken', allowed_roles: undefined as unknown as string[] },
];

describe('isAllowed (SPEC section 6)', () => {
  it.each([
    ['role on the list', 'csv-import', 'data_entry', true],
    ['roles compared case-insensitively', 'csv-import', 'MONITORING_ADMIN', true],
    ['path compared case-insensitively', 'CSV-Import', 'data_entry', true],
    ['role not on the list', 'csv-import', 'viewer', false],
    ['empty list: locked for everyone', 'locked', 'monitoring_admin', false],
    ['missing list: locked for everyone', 'broken', 'monitoring_admin', false],
    ['no role at all', 'csv-import', null, false],
    ['empty role', 'csv-import', '', false],
    ['no rule for the path: denied', 'pages', 'viewer', false],
    ['no rule, without a role: denied', 'pages', null, false],
    ['no rule, several roles: denied', 'pages', ['viewer', 'data_entry'], false],
    ['multi-role: every role allowed', 'csv-import', ['data_entry', 'monitoring_admin'], true],
    ['multi-role: one role not allowed', 'csv-import', ['data_entry', 'viewer'], false],
    ['multi-role: empty list of roles', 'csv-import', [], false],
  ] as const)('%s', (_name, path, roles, expected) => {
    expect(isAllowed(rules, path, roles as string | string[] | null)).toBe(expected);
  });
});

describe('a section without a rule fails closed (issue 26)', () => {
  // Every app's full rule set, each section open to every main role, but not the section asked for.
  const everyoneEverywhere = (app: (typeof PERMISSION_APPS)[number]): PermissionRule[] =>
    PERMISSION_SECTIONS[app].map((path) => ({ path, allowed_roles: [...MAIN_ROLES[app]] }));

  it.each(PERMISSION_APPS.flatMap((app) => MAIN_ROLES[app].map((role) => [app, role] as const)))(
    '%s: an unknown section is denied to %s',
    (app, role) => {
      const rules = everyoneEverywhere(app);
      expect(isAllowed(rules, 'no-such-section', role)).toBe(false);
      expect(isAllowed(rules, '', role)).toBe(false);
      expect(isAllowed(rules, 'no-such-section', role.toUpperCase())).toBe(false);
      expect(isAllowed(rules, 'no-such-section', [...MAIN_ROLES[app]])).toBe(false);
      expect(isAllowed([], PERMISSION_SECTIONS[app][0], role)).toBe(false);
      // ...while every real section of the same rules is open to the role.
      for (const section of PERMISSION_SECTIONS[app]) expect(isAllowed(rules, section, role)).toBe(true);
    },
  );
});

describe('permission sections', () => {
  it('names each section of an app once, in lower case path form', () => {
    for (const app of PERMISSION_APPS) {
      const sections = PERMISSION_SECTIONS[app];
      expect(new Set(sections).size).toBe(sections.length);
      for (const section of sections) expect(section).toMatch(/^[a-z]+(-[a-z]+)*$/);
    }
  });

  it('tells a section of an app from anything else', () => {
    expect(isPermissionSection('policy_management', 'toc')).toBe(true);
    expect(isPermissionSection('monitoring', 'toc')).toBe(false);
    expect(isPermissionSection('chart_review', 'settings')).toBe(true);
    expect(isPermissionSection('chart_review', 'Settings')).toBe(false);
    expect(isPermissionSection('monitoring', '')).toBe(false);
    expect(isPermissionSection('monitoring', 'constructor')).toBe(false);
  });

  it('keys the permission map by app and section', () => {
    expect(permissionKey('policy_management', 'edit-documents')).toBe('policy_management:edit-documents');
    expect(permissionKey('monitoring', 'request-queue')).toBe('monitoring:request-queue');
  });
});
