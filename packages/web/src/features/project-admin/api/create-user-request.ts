import { type UserRequest, type userRequestCreateSchema, userRequestSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { userRequestsPath } from './get-user-requests';
import { projectAdminKey } from './keys';

export type UserRequestInput = z.output<typeof userRequestCreateSchema>;

/** POST /api/projects/{id}/admin/user-requests -> 201: the superadmins are asked for the account. */
export function createUserRequest(projectId: string, request: UserRequestInput): Promise<UserRequest> {
  return apiFetch(userRequestsPath(projectId), { method: 'POST', body: request, schema: userRequestSchema });
}

export function useCreateUserRequest(projectId: string) {
  return useInvalidatingMutation(
    (request: UserRequestInput) => createUserRequest(projectId, request),
    [projectAdminKey(projectId)],
  );
}
