import { ACCESS_DENIED, type PermissionRule } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { type AccessInput, decideAccess, MONITORING_ADMIN_SECTIONS, sectionOfSegment } from './permissions';

const RULES: PermissionRule[] = [
  { path: 'pages', allowed_roles: ['Viewer', 'page_owner'] },
  { path: 'key-insights', allowed_roles: [] },
  { path: 'request-form', allowed_roles: undefined as unknown as string[] },
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
    ['superadmin bypasses a locked section', { superadmin: true, section: 'key-insights' }, 'allowed'],
    ['superadmin bypasses a path that names no section', { superadmin: true, section: null }, 'allowed'],
    ['role listed (case-insensitive)', { me: me('VIEWER') }, 'allowed'],
    ['rule role in other case', { me: me('viewer') }, 'allowed'],
    [
      'no rule for the section: denied',
      { section: 'introduction', me: me('data_entry') },
      { reason: 'forbidden', role: 'data_entry', toast: 'Access forbidden for role(s) data_entry.' },
    ],
    [
      'a path that names no section: denied',
      { section: null },
      { reason: 'forbidden', role: 'viewer', toast: 'Access forbidden for role(s) viewer.' },
    ],
    ['app home (no section): allowed with a main role', { section: '' }, 'allowed'],
    [
      'role not listed: forbidden',
      { me: me('data_entry') },
      { reason: 'forbidden', role: 'data_entry', toast: 'Access forbidden for role(s) data_entry.' },
    ],
    [
      'empty list: locked',
      { section: 'key-insights' },
      { reason: 'forbidden', role: 'viewer', toast: 'Section "key-insights" locked – no roles assigned.' },
    ],
    [
      'missing list: locked',
      { section: 'request-form' },
      { reason: 'forbidden', role: 'viewer', toast: 'Section "request-form" locked – no roles assigned.' },
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
    const rules = { data: [{ path: section, allowed_roles: ['monitoring_admin'] }] };
    expect(decideAccess(input({ section, rules, me: me('monitoring_admin', 'admin') }))).toBe('allowed');
    expect(decideAccess(input({ section, me: me('monitoring_admin', 'admin') }))).toMatchObject({
      reason: 'forbidden',
    });
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

  it('a section without a rule is denied to every role, even one the map allows', () => {
    for (const role of ['viewer', 'page_owner', 'data_entry', 'monitoring_admin']) {
      expect(
        decideAccess(
          input({ section: 'csv-import', me: me(role), userMap: { data: { 'monitoring:csv-import': true } } }),
        ),
      ).toEqual({ reason: 'forbidden', role, toast: `Access forbidden for role(s) ${role}.` });
    }
  });

  it("takes only the app's own sections (tsc fails on an unused @ts-expect-error)", () => {
    const monitoring: AccessInput<'monitoring'> = { ...input(), app: 'monitoring', section: 'csv-import' };
    // @ts-expect-error: 'toc' is a policy management section.
    const wrong: AccessInput<'monitoring'> = { ...monitoring, section: 'toc' };
    expect(decideAccess(wrong)).toMatchObject({ reason: 'forbidden' });
  });

  it('uses the shared denial texts', () => {
    expect(ACCESS_DENIED.title).toBe('Access Denied !');
  });
});

describe('sectionOfSegment', () => {
  it.each<[Parameters<typeof sectionOfSegment>[0], string, ReturnType<typeof sectionOfSegment>]>([
    ['policy_management', '', ''],
    ['policy_management', 'toc', 'toc'],
    ['policy_management', 'TOC', 'toc'],
    ['policy_management', 'search', 'documents'],
    ['policy_management', 'bulk-sign', 'bulk-sign'],
    ['policy_management', 'page-levels', null],
    ['policy_management', 'no-such-page', null],
    ['policy_management', 'constructor', null],
    ['monitoring', 'page-levels', 'page-levels'],
    ['monitoring', 'search', null],
    ['monitoring', 'toString', null],
    ['chart_review', 'settings', 'settings'],
    ['chart_review', 'not-built-yet', null],
  ])('%s / %s', (app, segment, expected) => {
    expect(sectionOfSegment(app, segment)).toBe(expected);
  });
});
