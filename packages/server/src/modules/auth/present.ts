import type { CurrentUser } from '@portal/shared';

interface PresentableUser {
  id: number;
  username: string;
  email: string;
  role: string;
  firstName: string;
  lastName: string;
  twoFactorConfirmedAt: Date | null;
}

/** The current-user shape of SPEC section 3 (snake_case as the SPEC names its fields). */
export const presentUser = (user: PresentableUser): CurrentUser => ({
  id: user.id,
  username: user.username,
  email: user.email,
  role: user.role as CurrentUser['role'],
  first_name: user.firstName,
  last_name: user.lastName,
  two_factor_confirmed_at: user.twoFactorConfirmedAt?.toISOString() ?? null,
});
