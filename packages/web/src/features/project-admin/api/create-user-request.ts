import { type UserRequest, type userRequestCreateSchema, userRequestSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { userRequestsPath } from './get-user-requests';
import { projectAdminKey } from './keys';

export type UserRequestInput = z.output<typeof userRequestCreateSchema>;

/** POST /api/projects/{id}/admin/user-requests -> 201: the superadmins are asked for the account. */
export function createUserRequest(projectId: string, request: UserRequestInput): Promise<UserRequest> {
  return apiFetch(userRequestsPath(projectId), { method: 'POST', body: request, schema: userRequestSchema });
}

export function useCreateUserRequest(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UserRequestInput) => createUserRequest(projectId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectAdminKey(projectId) }),
  });
}
