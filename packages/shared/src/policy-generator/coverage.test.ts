import { describe, expect, it } from 'vitest';
import { citesStandard as cites } from './coverage.js';

describe('citesStandard', () => {
  it('finds a citation with or without the section sign, and its subsections', () => {
    expect(cites('See 42 CFR 482.42(a).', '§482.42(a)')).toBe(true);
    expect(cites('See 42 CFR 482.42(a)(1), infection control.', '§482.42(a)')).toBe(true);
    expect(cites('See §482.42.', '482.42')).toBe(true);
    expect(cites('Board duties (GOV.1)', 'GOV.1')).toBe(true);
    expect(cites('<li>42 CFR <strong>482.23(c)</strong></li>', '§482.23(c)')).toBe(true);
  });

  it('does not take a neighbouring number for the citation', () => {
    expect(cites('See 42 CFR 482.42(b).', '§482.42(a)')).toBe(false);
    expect(cites('See 42 CFR 482.13.', '§482.1')).toBe(false);
    expect(cites('See IC.1.10.', 'IC.1.1')).toBe(false);
    expect(cites('See 1482.42.', '482.42')).toBe(false);
    expect(cites('anything', '§ ')).toBe(false);
  });
});
