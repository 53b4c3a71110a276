import { describe, expect, it } from 'vitest';
import { errorMessage } from './errors.js';

describe('errorMessage', () => {
  it('reads message, then the first field error, then falls back', () => {
    expect(errorMessage({ message: 'Nope.' }, 'fallback')).toBe('Nope.');
    expect(errorMessage({ errors: { email: ['Bad email.', 'Other'] } }, 'fallback')).toBe('Bad email.');
    expect(errorMessage({ errors: { email: 'Plain string.' } }, 'fallback')).toBe('Plain string.');
    expect(errorMessage({ message: '  ', errors: {} }, 'fallback')).toBe('fallback');
    expect(errorMessage('<html>502</html>', 'fallback')).toBe('fallback');
    expect(errorMessage(null, 'fallback')).toBe('fallback');
  });
});
