import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const SSO_ACCEPT_TERMS_PATH = '/auth/sso/accept-terms';

/** What the single sign-on does after the terms: signed in (to `redirect` when the server names one), or the code step. */
export type SsoTermsOutcome = { kind: 'signed-in'; redirect: string | null } | { kind: 'two-factor' };

/** POST /auth/sso/accept-terms { accept_terms: true }: 204 (or { redirect }) when signed in, { two_factor } for a code. */
export async function acceptSsoTerms(): Promise<SsoTermsOutcome> {
  const body = await apiFetch<unknown>(SSO_ACCEPT_TERMS_PATH, { method: 'POST', body: { accept_terms: true } });
  if (body && typeof body === 'object') {
    if ((body as { two_factor?: unknown }).two_factor === true) return { kind: 'two-factor' };
    const redirect = (body as { redirect?: unknown }).redirect;
    if (typeof redirect === 'string') return { kind: 'signed-in', redirect };
  }
  return { kind: 'signed-in', redirect: null };
}

export function useAcceptSsoTerms() {
  return useMutation({ mutationFn: acceptSsoTerms });
}
