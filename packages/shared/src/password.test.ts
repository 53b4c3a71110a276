import { describe, expect, it } from 'vitest';
import { passwordProblems } from './password.js';

describe('passwordProblems (basic SPEC rules)', () => {
  it('accepts a long password with every character class', () => {
    expect(passwordProblems('Kx7#qPv9!mZt2$Lw')).toEqual([]);
  });

  it('names each missing requirement', () => {
    expect(passwordProblems('short')).toContain('Password must be at least 12 characters long');
    expect(passwordProblems('alllowercase12!')).toContain('Password must contain an uppercase letter');
    expect(passwordProblems('ALLUPPERCASE12!')).toContain('Password must contain a lowercase letter');
    expect(passwordProblems('NoDigitsHere!!x')).toContain('Password must contain a digit');
    expect(passwordProblems('NoSpecials12345a')).toContain('Password must contain a special character');
    expect(passwordProblems('Kx7#qPv9!mZt2$Lwwww')).toContain(
      'Avoid repeating the same character multiple times in a row',
    );
  });
});
