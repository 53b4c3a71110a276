import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installValidationMessages } from './validation-messages';

describe('installValidationMessages', () => {
  it("makes zod answer in the portal's words wherever a schema gives no message", () => {
    const email = z.string().max(254);
    installValidationMessages();
    expect(email.safeParse('x'.repeat(300)).error?.issues[0]?.message).toBe('Enter at most 254 characters.');
    expect(z.object({ name: z.string() }).safeParse({}).error?.issues[0]?.message).toBe('This field is required.');
    expect(z.string().min(1, 'Enter your name.').safeParse('').error?.issues[0]?.message).toBe('Enter your name.');
  });
});
