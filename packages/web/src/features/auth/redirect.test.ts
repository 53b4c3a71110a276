import { describe, expect, it } from 'vitest';
import { afterLoginPath, safeRedirectPath } from './redirect';

const ORIGIN = 'https://portal.example';

describe('safeRedirectPath', () => {
  it.each([
    ['/member/projects', '/member/projects'],
    ['/two-factor-settings?tab=2#codes', '/two-factor-settings?tab=2#codes'],
    ['/app/monitoring/1/../2', '/app/monitoring/2'],
    ['/member//projects', '/member/projects'],
  ])('keeps the same-origin path %s', (value, expected) => {
    expect(safeRedirectPath(value, ORIGIN)).toBe(expected);
  });

  it.each([
    null,
    '',
    'member/projects',
    '//evil.example/path',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/\t/evil.example',
    '/\n/evil.example',
    '/%09/evil.example',
    '/member-login',
    '/member-login?redirect=/x',
    '/x/../member-login',
    '//member-login',
    // Normalised before the check (issue 29): each of these resolves to another host.
    '/..//evil.example/',
    '/./..//evil',
    '/%2e%2e//evil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/\\\\evil.example',
    'https:evil',
    'https:/evil.example',
  ])('rejects %j', (value) => {
    expect(safeRedirectPath(value, ORIGIN)).toBeNull();
  });

  it('falls back to the projects list', () => {
    expect(afterLoginPath('//evil.example')).toBe('/member/projects');
    expect(afterLoginPath('/..//evil.example/')).toBe('/member/projects');
    expect(afterLoginPath(null)).toBe('/member/projects');
  });
});
