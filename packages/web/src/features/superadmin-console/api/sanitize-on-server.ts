import { sanitizeResponseSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

/** POST /super/sanitize { html }: the server's sanitiser applied to the editor's HTML. */
export async function sanitizeOnServer(html: string): Promise<string> {
  const answer = await apiFetch('/super/sanitize', { method: 'POST', body: { html }, schema: sanitizeResponseSchema });
  return answer.html;
}

export function useSanitizeOnServer() {
  return useMutation({ mutationFn: sanitizeOnServer });
}
