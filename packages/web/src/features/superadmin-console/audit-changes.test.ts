import { describe, expect, it } from 'vitest';
import { changeRows, fieldLabel, valueText } from './audit-changes';

describe('audit changes in words', () => {
  it('turns field names into words', () => {
    expect(fieldLabel('first_name')).toBe('First name');
    expect(fieldLabel('owner_id')).toBe('Owner');
    expect(fieldLabel('member_ids')).toBe('Members');
    expect(fieldLabel('id')).toBe('ID');
    expect(fieldLabel('na_reason')).toBe('N/A reason');
    expect(fieldLabel('public_url')).toBe('Public URL');
    expect(fieldLabel('reviewIntervalMonths')).toBe('Review interval months');
    expect(fieldLabel('pain_assessed.evidence_location')).toBe('Pain assessed: evidence location');
    expect(fieldLabel('project_12')).toBe('Project 12');
    expect(fieldLabel('policies/library')).toBe('policies/library');
  });

  it('says values in words', () => {
    expect(valueText(null)).toBe('empty');
    expect(valueText('')).toBe('empty');
    expect(valueText(true)).toBe('yes');
    expect(valueText(1200)).toBe('1,200');
    expect(valueText(['a', 'b'])).toBe('a, b');
    expect(valueText([])).toBe('none');
    expect(valueText({ limits: true })).toBe('{"limits":true}');
  });

  it('reads changes by field, secrets as changed, and older lists of { from, to }; anything else is not a change list', () => {
    expect(changeRows({ changes: { role: { from: 'a', to: 'b' }, password: { changed: true } } })).toEqual([
      { field: 'role', label: 'Role', secret: false, from: 'a', to: 'b' },
      { field: 'password', label: 'Password', secret: true },
    ]);
    expect(changeRows({ changes: [{ user_id: 5, from: null, to: 'data_entry' }] })).toEqual([
      { field: '0', label: 'User 5', secret: false, from: null, to: 'data_entry' },
    ]);
    expect(changeRows({ changes: [{ id: 9, from: '1.1', to: '1.2' }] })?.[0]?.label).toBe('#9');
    expect(changeRows({})).toBeNull();
    expect(changeRows({ changes: {} })).toBeNull();
    expect(changeRows({ changes: ['Observation changed'] })).toBeNull();
    expect(changeRows({ changes: 3 })).toBeNull();
    expect(changeRows({ changes: { a: { to: 1 } } })).toBeNull();
  });
});
