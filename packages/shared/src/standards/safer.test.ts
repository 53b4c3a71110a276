import { describe, expect, it } from 'vitest';
import { correctionDue, needsLeadership } from './safer.js';

describe('SAFER matrix rules', () => {
  it('gives 60 days to correct, 3 days for an immediate threat to life, across month and year ends', () => {
    expect(correctionDue('2026-11-27', false)).toBe('2027-01-26');
    expect(correctionDue('2026-12-30', true)).toBe('2027-01-02');
    expect(correctionDue('2028-02-28', true)).toBe('2028-03-02');
  });

  it('asks for leadership and a preventive analysis in the upper right cells and for an immediate threat', () => {
    expect(needsLeadership('high', 'pattern')).toBe(true);
    expect(needsLeadership('high', 'widespread')).toBe(true);
    expect(needsLeadership('moderate', 'widespread')).toBe(true);
    expect(needsLeadership('high', 'limited')).toBe(false);
    expect(needsLeadership('moderate', 'pattern')).toBe(false);
    expect(needsLeadership('low', 'widespread')).toBe(false);
    expect(needsLeadership('low', 'limited', true)).toBe(true);
  });
});
