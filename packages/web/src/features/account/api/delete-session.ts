import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { SESSIONS_KEY, SESSIONS_PATH } from './get-sessions';

/** DELETE /api/user/sessions/{id}: signs that (other) session out. */
export function deleteSession(id: string): Promise<void> {
  return apiFetch(`${SESSIONS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
