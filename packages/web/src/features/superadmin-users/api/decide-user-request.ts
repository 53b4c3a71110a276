import { type UserRequest, userRequestSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { SUPER_DASHBOARD_KEY, SUPER_PROJECTS_KEY, SUPER_USER_REQUESTS_KEY, SUPER_USERS_KEY } from './keys';

/** POST /super/user-requests/{id}/approve { username? }: creates (or reuses) the account and sends the invitation. */
export function approveUserRequest(id: number, username?: string): Promise<UserRequest> {
  return apiFetch(`/super/user-requests/${id}/approve`, {
    method: 'POST',
    body: username ? { username } : {},
    schema: userRequestSchema,
  });
}

/** POST /super/user-requests/{id}/reject { reason }: the reason is emailed to the admin who asked. */
export function rejectUserRequest(id: number, reason: string): Promise<UserRequest> {
  return apiFetch(`/super/user-requests/${id}/reject`, { method: 'POST', body: { reason }, schema: userRequestSchema });
}

function useAfterDecision() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: SUPER_USER_REQUESTS_KEY });
    // An approval creates or changes an account and adds it to a project; the dashboard counts pending requests.
    void queryClient.invalidateQueries({ queryKey: SUPER_USERS_KEY });
    void queryClient.invalidateQueries({ queryKey: SUPER_PROJECTS_KEY });
    void queryClient.invalidateQueries({ queryKey: SUPER_DASHBOARD_KEY });
  };
}

export function useApproveUserRequest() {
  const onSuccess = useAfterDecision();
  return useMutation({
    mutationFn: ({ id, username }: { id: number; username?: string }) => approveUserRequest(id, username),
    onSuccess,
  });
}

export function useRejectUserRequest() {
  const onSuccess = useAfterDecision();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => rejectUserRequest(id, reason),
    onSuccess,
  });
}
