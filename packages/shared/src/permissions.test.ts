import { describe, expect, it } from 'vitest';
import { isAllowed, type PermissionRule } from './schemas/permissions.js';

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
    ['no rule for the path: allowed', 'pages', 'viewer', true],
    ['no rule, even without a role', 'pages', null, true],
    ['multi-role: every role allowed', 'csv-import', ['data_entry', 'monitoring_admin'], true],
    ['multi-role: one role not allowed', 'csv-import', ['data_entry', 'viewer'], false],
    ['multi-role: empty list of roles', 'csv-import', [], false],
  ] as const)('%s', (_name, path, roles, expected) => {
    expect(isAllowed(rules, path, roles as string | string[] | null)).toBe(expected);
  });
});
