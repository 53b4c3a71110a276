import { type PolicyUserRequestCreate, type UserRequest, userRequestSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyUserRequestsKey, policyUserRequestsPath } from './get-policy-user-requests';

/**
 * POST .../user-requests {first_name, last_name, email, main_role, justification} -> 201: the superadmins are asked
 * for the account. 409 when the email belongs to a member already or has a pending request.
 */
export function createPolicyUserRequest(projectId: string, request: PolicyUserRequestCreate): Promise<UserRequest> {
  return apiFetch(policyUserRequestsPath(projectId), { method: 'POST', body: request, schema: userRequestSchema });
}

export function useCreatePolicyUserRequest(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PolicyUserRequestCreate) => createPolicyUserRequest(projectId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: policyUserRequestsKey(projectId) }),
  });
}
