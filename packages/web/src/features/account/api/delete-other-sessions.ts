import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { SESSIONS_KEY, SESSIONS_PATH } from './get-sessions';

/** DELETE /api/user/sessions: signs out every session but this one. */
export function deleteOtherSessions(): Promise<void> {
  return apiFetch(SESSIONS_PATH, { method: 'DELETE' });
}

export function useDeleteOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
