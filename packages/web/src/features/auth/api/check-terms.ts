import { isWellFormedEmail, type TermsStatus } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const CHECK_TERMS_PATH = '/check-terms';

export async function getTermsStatus(email: string, signal?: AbortSignal): Promise<TermsStatus> {
  const params = new URLSearchParams({ email: email.trim() });
  // Typed, not parsed: the login page downloads no zod (decision record 030).
  const { status } = await apiFetch<{ status: TermsStatus }>(`${CHECK_TERMS_PATH}?${params}`, { signal });
  return status;
}

export function termsStatusQueryOptions(email: string) {
  return queryOptions({
    queryKey: ['auth', 'check-terms', email.trim().toLowerCase()],
    queryFn: ({ signal }) => getTermsStatus(email, signal),
    // SPEC section 5: the terms lookup runs only for a well-formed email.
    enabled: isWellFormedEmail(email),
    // Rate-limited on the server; the login itself enforces the terms anyway.
    retry: false,
    staleTime: 60_000,
  });
}

/** The terms status of an (already debounced) email; idle for anything that is not a well-formed email. */
export function useTermsStatus(email: string) {
  return useQuery(termsStatusQueryOptions(email));
}

/** SPEC section 4: the checkbox is hidden for accepted and not_found and required for the two needs_* states. */
export function termsAcceptanceRequired(status: TermsStatus | undefined): boolean {
  return status === 'needs_initial_acceptance' || status === 'needs_update_acceptance';
}
