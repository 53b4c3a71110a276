import { INVITATION_TTL_DAYS } from '@portal/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { passwordResetTokens } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { randomToken, sha256 } from '../../lib/crypto.js';

type LinkPurpose = 'invitation' | 'reset';
const TTL_MS: Record<LinkPurpose, number> = { invitation: minutes(60 * 24 * INVITATION_TTL_DAYS), reset: minutes(60) };

/**
 * A new single-use set-password link (the /reset-password screen serves both purposes); every older unused link of
 * the account is voided. Returns the link to email. Call inside the transaction of the change that needs it.
 */
export async function issuePasswordLink(
  tx: DbOrTx,
  input: { userId: number; email: string; purpose: LinkPurpose; now: Date; appUrl: string },
): Promise<string> {
  const token = randomToken(32);
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: input.now })
    .where(and(eq(passwordResetTokens.userId, input.userId), isNull(passwordResetTokens.usedAt)));
  await tx.insert(passwordResetTokens).values({
    userId: input.userId,
    tokenHash: sha256(token),
    purpose: input.purpose,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + TTL_MS[input.purpose]),
  });
  return `${input.appUrl}/reset-password?token=${token}&email=${encodeURIComponent(input.email)}`;
}

export interface Invitee {
  email: string;
  firstName: string;
  username: string;
}

export const invitationMail = (user: Invitee, link: string, projectName?: string) => ({
  to: user.email,
  subject: 'Your Healthcare Quality Portal account',
  template: 'invitation',
  text: `Hello ${user.firstName || user.username},\n\nAn account was created for you on the Healthcare Quality Portal${projectName ? ` for ${projectName}` : ''}.\nYour username is ${user.username}; you sign in with this email address.\n\nTo choose your password, open this link within ${INVITATION_TTL_DAYS} days:\n\n${link}\n\nIf the link has expired, ask your administrator to send a new invitation.\n`,
});

export const passwordResetMail = (user: Invitee, link: string) => ({
  to: user.email,
  subject: 'Reset your password',
  template: 'password_reset',
  text: `Hello ${user.firstName || user.username},\n\nAn administrator asked for a password reset of your Healthcare Quality Portal account. To choose a new password, open this link within 60 minutes:\n\n${link}\n\nIf you did not expect this, contact your administrator.\n`,
});
