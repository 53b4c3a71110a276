import { auditChangesSchema } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { AUDIT_TEXT_LIMIT, changes, shorten } from './audit-diff.js';

/** changes(): what an update's audit event records (issue 26). */
describe('changes()', () => {
  it('records the changed fields only, each with its value before and after', () => {
    const diff = changes(
      { first_name: 'Ann', last_name: 'Lee', role: 'simple' },
      { first_name: 'Anna', last_name: 'Lee', role: 'admin' },
    );
    expect(diff).toEqual({ first_name: { from: 'Ann', to: 'Anna' }, role: { from: 'simple', to: 'admin' } });
    expect(auditChangesSchema.safeParse(diff).success).toBe(true);
  });

  it('answers nothing when nothing changed', () => {
    expect(changes({ a: 1, b: [1, 2], c: { x: 1, y: 2 } }, { a: 1, b: [1, 2], c: { y: 2, x: 1 } })).toEqual({});
  });

  it('compares the fields of `after` (a patch), or the fields named', () => {
    const before = { title: 'Old', number: '1.1', owner_id: 4 };
    expect(changes(before, { title: 'New' })).toEqual({ title: { from: 'Old', to: 'New' } });
    // A field that is gone is recorded as null when named.
    expect(changes({ a: 1, b: 2 }, { a: 1 }, { fields: ['a', 'b'] })).toEqual({ b: { from: 2, to: null } });
    // A field that was not there before is recorded from null.
    expect(changes(null, { name: 'Ward 3' })).toEqual({ name: { from: null, to: 'Ward 3' } });
  });

  it('compares arrays and objects by content, in order for arrays', () => {
    expect(changes({ roles: ['a', 'b'] }, { roles: ['a', 'b'] })).toEqual({});
    expect(changes({ roles: ['a', 'b'] }, { roles: ['b', 'a'] })).toEqual({
      roles: { from: ['a', 'b'], to: ['b', 'a'] },
    });
    expect(changes({ options: { limits: true } }, { options: { limits: false } })).toEqual({
      options: { from: { limits: true }, to: { limits: false } },
    });
  });

  it('records Dates as ISO times and undefined as null', () => {
    const then = new Date('2026-01-02T03:04:05.000Z');
    expect(changes({ at: then }, { at: new Date(then.getTime()) })).toEqual({});
    expect(changes({ at: then }, { at: undefined }, { fields: ['at'] })).toEqual({
      at: { from: '2026-01-02T03:04:05.000Z', to: null },
    });
  });

  it('names secret fields without their values', () => {
    const diff = changes(
      {
        password: 'hash-1',
        password_hash: 'h1',
        two_factor_secret: 's1',
        api_token: 't1',
        encounter_ref: 'enc-1',
        encrypted_encounter_ref: 'x1',
        pin: '1234',
        name: 'A',
      },
      {
        password: 'hash-2',
        password_hash: 'h2',
        two_factor_secret: null,
        api_token: 't2',
        encounter_ref: 'enc-2',
        encrypted_encounter_ref: 'x2',
        pin: '9999',
        name: 'B',
      },
      { secret: ['pin'] },
    );
    expect(diff).toEqual({
      password: { changed: true },
      password_hash: { changed: true },
      two_factor_secret: { changed: true },
      api_token: { changed: true },
      encounter_ref: { changed: true },
      encrypted_encounter_ref: { changed: true },
      pin: { changed: true },
      name: { from: 'A', to: 'B' },
    });
    const stored = JSON.stringify(diff);
    for (const value of [
      'hash-1',
      'hash-2',
      'h1',
      'h2',
      's1',
      't1',
      't2',
      'enc-1',
      'enc-2',
      'x1',
      'x2',
      '1234',
      '9999',
    ]) {
      expect(stored).not.toContain(value);
    }
    // An unchanged secret is not named at all.
    expect(changes({ password: 'same' }, { password: 'same' })).toEqual({});
  });

  it('shortens long text to its first 200 characters, comparing the whole text', () => {
    const long = `<p>${'a'.repeat(300)}</p>`;
    const longer = `${long.slice(0, 250)}b${long.slice(251)}`; // differs after character 200
    const diff = changes({ introduction: long }, { introduction: longer });
    expect(diff.introduction).toEqual({
      from: `${long.slice(0, AUDIT_TEXT_LIMIT)}…`,
      to: `${longer.slice(0, AUDIT_TEXT_LIMIT)}…`,
    });
    expect(changes({ introduction: 'short' }, { introduction: long }).introduction).toEqual({
      from: 'short',
      to: `${long.slice(0, 200)}…`,
    });
    expect(shorten('x'.repeat(200))).toBe('x'.repeat(200));
    expect(shorten('x'.repeat(201))).toBe(`${'x'.repeat(200)}…`);
    expect(shorten(5)).toBe(5);
  });
});
