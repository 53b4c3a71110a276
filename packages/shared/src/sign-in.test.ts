import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isWellFormedEmail } from './sign-in.js';

// The sign-in page checks addresses without zod (decision record 030); the server checks them with z.email(). The
// two must agree, or the page would ask for terms the server then refuses to look up (or the other way round).
describe('isWellFormedEmail', () => {
  const samples = [
    'member@example.com',
    ' Member.Name+tag@Sub.Example.org ',
    "o'brien@example.ie",
    'a_b-c@ex-ample.co.uk',
    'member@example',
    'member@@example.com',
    '.member@example.com',
    'member.@example.com',
    'mem..ber@example.com',
    'member@-example.com',
    'member@example.c',
    'member@exa_mple.com',
    '@example.com',
    'member',
    '',
    'member@example.com.',
    'mémber@example.com',
  ];
  it.each(samples)('agrees with z.email() on %j', (sample) => {
    expect(isWellFormedEmail(sample)).toBe(z.email().safeParse(sample.trim()).success);
  });
  it('accepts an ordinary address and refuses one without a domain', () => {
    expect(isWellFormedEmail('member@example.com')).toBe(true);
    expect(isWellFormedEmail('member@example')).toBe(false);
  });
});
