import { ACCESS_DENIED, type PermissionRule } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { type AccessInput, decideAccess, MONITORING_ADMIN_SECTIONS } from './permissions';

const RULES: PermissionRule[] = [
  { path: 'pages', allowed_roles: ['Viewer', 'page_owner'] },
  { path: 'locked', allowed_roles: [] },
  { path: 'missing-list', allowed_roles: undefined as unknown as string[] },
  { path: 'toc', allowed_roles: ['reader', 'signer'] },
];

function input(overrides: Partial<AccessInput> = {}): AccessInput {
  return {
    app: 'monitoring',
    section: 'pages',
    projectId: '4',
    superadmin: false,
    me: { data: { main_role: 'viewer', project_role: 'admin' } },
    rules: { data: RULES },
    userMap: { data: {} },
    ...overrides,
  };
}

const me = (main_role: string | null, project_role: 'admin' | 'simple' | null = 'admin') => ({
  data: { main_role, project_role },
});
const failed = (status: number) => ({ error: new ApiError(status, null, 'failed') });

describe('decideAccess (SPEC section 6)', () => {
  it.each<[string, Partial<AccessInput>, ReturnType<typeof decideAccess>]>([
    ['superadmin bypasses every check', { superadmin: true, me: failed(500), rules: failed(500) }, 'allowed'],
    ['superadmin bypasses a locked section', { superadmin: true, section: 'locked' }, 'allowed'],
    ['role listed (case-insensitive)', { me: me('VIEWER') }, 'allowed'],
    ['rule role in other case', { me: me('viewer') }, 'allowed'],
    ['no rule for the section: allowed', { section: 'introduction', me: me('data_entry') }, 'allowed'],
    ['app home (no section): allowed with a main role', { section: '' }, 'allowed'],
    [
      'role not listed: forbidden',
      { me: me('data_entry') },
      { reason: 'forbidden', role: 'data_entry', toast: 'Access forbidden for role(s) data_entry.' },
    ],
    [
      'empty list: locked',
      { section: 'locked' },
      { reason: 'forbidden', role: 'viewer', toast: 'Section "locked" locked – no roles assigned.' },
    ],
    [
      'missing list: locked',
      { section: 'missing-list' },
      { reason: 'forbidden', role: 'viewer', toast: 'Section "missing-list" locked – no roles assigned.' },
    ],
    ['no main role: unconfigured', { me: me(null) }, { reason: 'unconfigured', role: null, toast: null }],
    [
      'simple member without main role on a normal page: unconfigured',
      { me: me(null, 'simple'), section: 'introduction' },
      { reason: 'unconfigured', role: null, toast: null },
    ],
    [
      'monitoring me-data failed: roleUnavailable',
      { me: failed(500) },
      { reason: 'roleUnavailable', role: null, toast: 'Cannot determine your monitoring role yet.' },
    ],
    [
      'policy me-data failed: roleUnavailable',
      { app: 'policy_management', section: 'toc', me: failed(0), userMap: undefined },
      { reason: 'roleUnavailable', role: null, toast: 'Cannot determine your policy management role yet.' },
    ],
    ['me-data 403: forbidden', { me: failed(403) }, { reason: 'forbidden', role: null, toast: null }],
    [
      'rules 403: forbidden',
      { rules: failed(403) },
      { reason: 'forbidden', role: 'viewer', toast: 'Access forbidden for role(s) viewer.' },
    ],
    [
      'rules failed otherwise: roleUnavailable',
      { rules: failed(500) },
      { reason: 'roleUnavailable', role: 'viewer', toast: 'Cannot determine your monitoring role yet.' },
    ],
    [
      'monitoring per-user map denies although the rule allows',
      { userMap: { data: { 'monitoring:pages': false } } },
      { reason: 'forbidden', role: 'viewer', toast: 'Access forbidden for role(s) viewer.' },
    ],
    ['monitoring per-user map allows and rule allows', { userMap: { data: { 'monitoring:pages': true } } }, 'allowed'],
    [
      'map allows but the rule does not',
      { me: me('data_entry'), userMap: { data: { 'monitoring:pages': true } } },
      { reason: 'forbidden', role: 'data_entry', toast: 'Access forbidden for role(s) data_entry.' },
    ],
    [
      'policy ignores the monitoring map',
      { app: 'policy_management', section: 'toc', me: me('reader'), userMap: undefined },
      'allowed',
    ],
    [
      'policy role not listed',
      { app: 'policy_management', section: 'toc', me: me('author'), userMap: undefined },
      { reason: 'forbidden', role: 'author', toast: 'Access forbidden for role(s) author.' },
    ],
    ['me-data still loading', { me: 'loading' }, 'loading'],
    ['rules still loading', { rules: 'loading' }, 'loading'],
    ['monitoring map still loading', { userMap: 'loading' }, 'loading'],
  ])('%s', (_name, overrides, expected) => {
    expect(decideAccess(input(overrides))).toEqual(expected);
  });

  it.each(MONITORING_ADMIN_SECTIONS)('sends a simple member away from monitoring page %s', (section) => {
    expect(decideAccess(input({ section, me: me('viewer', 'simple') }))).toEqual({ redirect: '/app/monitoring/4' });
    // ...even one without a main role, who then sees 'unconfigured' on the monitoring home.
    expect(decideAccess(input({ section, me: me(null, 'simple') }))).toEqual({ redirect: '/app/monitoring/4' });
    // A project admin is not redirected (the rules decide).
    expect(decideAccess(input({ section, me: me('monitoring_admin', 'admin') }))).toBe('allowed');
  });

  it('lists exactly the administration pages of SPEC section 6', () => {
    expect(MONITORING_ADMIN_SECTIONS).toHaveLength(15);
  });

  it('does not redirect simple members from policy pages with the same names', () => {
    expect(
      decideAccess(
        input({ app: 'policy_management', section: 'manage-users', me: me(null, 'simple'), userMap: undefined }),
      ),
    ).toEqual({ reason: 'unconfigured', role: null, toast: null });
  });

  it('uses the shared denial texts', () => {
    expect(ACCESS_DENIED.title).toBe('Access Denied !');
  });
});
