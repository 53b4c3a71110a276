import { describe, expect, it } from 'vitest';
import { LOCAL_PATH_MAX, localPath } from './redirect.js';

const ORIGIN = 'https://portal.example';

describe('localPath', () => {
  it.each([
    ['/', '/'],
    ['/member/projects', '/member/projects'],
    ['/two-factor-settings?tab=2#codes', '/two-factor-settings?tab=2#codes'],
    ['/app/monitoring/1/../2', '/app/monitoring/2'],
    ['/app/monitoring/1/%2e%2e/2', '/app/monitoring/2'],
    ['/member//projects/', '/member/projects/'],
    ['/member/./projects/.', '/member/projects/'],
    ['/a/..', '/'],
    ['/search?q=a%20b&next=//x', '/search?q=a%20b&next=//x'],
  ])('keeps %s as %s', (value, expected) => {
    expect(localPath(value)).toBe(expected);
  });

  // Each of these reaches another site (or could, after one more decoding) if taken as it is.
  const attacks = [
    '//evil.example/path',
    '/..//evil.example/',
    '/../..//evil.example',
    '/./..//evil',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/.%2E//evil.example',
    '/\\evil.example',
    '/\\\\evil.example',
    '/%5Cevil.example',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    'https:evil',
    'https://evil.example/',
    'javascript:alert(1)',
    'evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    ' /member/projects',
    '/\u0000evil',
    '',
  ];
  it.each(attacks)('rejects %j', (value) => {
    expect(localPath(value)).toBeNull();
  });

  it('never answers a path a browser resolves to another origin, for any attack string or a mix of them', () => {
    const pieces = ['/', '//', '..', '.', '%2e', '\\', 'evil.example', '%2f', '?', '#', 'a'];
    const tried = [...attacks];
    for (const a of pieces) for (const b of pieces) for (const c of pieces) tried.push(`/${a}${b}${c}`);
    for (const value of tried) {
      const path = localPath(value);
      if (path === null) continue;
      expect(path.startsWith('/') && !path.startsWith('//'), value).toBe(true);
      expect(new URL(path, ORIGIN).origin, value).toBe(ORIGIN);
      // Normalised: judging it again changes nothing.
      expect(localPath(path), value).toBe(path);
    }
  });

  it('rejects anything but a string and an overlong path', () => {
    for (const value of [null, undefined, 42, ['/x'], { toString: () => '/x' }]) expect(localPath(value)).toBeNull();
    expect(localPath(`/${'a'.repeat(LOCAL_PATH_MAX)}`)).toBeNull();
  });
});
