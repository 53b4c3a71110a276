import {
  type DataRequestComment,
  type DataRequestCreate,
  type DataRequestDetail,
  type DataRequestUpdate,
  dataRequestCommentSchema,
  dataRequestDetailSchema,
} from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringPath } from './keys';
import { invalidateRequests, requestKey, requestsKey } from './requests-list';

export type { DataRequestCreate, DataRequestUpdate };

/** POST .../requests: files a data request (the data stewards are notified) -> the request. */
export function createRequest(projectId: string, input: DataRequestCreate): Promise<DataRequestDetail> {
  return apiFetch(`${monitoringPath(projectId)}/requests`, {
    method: 'POST',
    body: input,
    schema: dataRequestDetailSchema,
  });
}

export function useCreateRequest(projectId: string) {
  return useInvalidatingMutation(
    (input: DataRequestCreate) => createRequest(projectId, input),
    [requestsKey(projectId)],
  );
}

/** PATCH .../requests/{id} {status?, assignee_id?, response?}: stewards; the requester may only cancel. */
export function updateRequest(
  projectId: string,
  requestId: number,
  input: DataRequestUpdate,
): Promise<DataRequestDetail> {
  return apiFetch(`${monitoringPath(projectId)}/requests/${requestId}`, {
    method: 'PATCH',
    body: input,
    schema: dataRequestDetailSchema,
  });
}

export function useUpdateRequest(projectId: string, requestId: number) {
  return useApiMutation(
    (input: DataRequestUpdate) => updateRequest(projectId, requestId, input),
    (queryClient, request) => {
      queryClient.setQueryData(requestKey(projectId, requestId), request);
      return invalidateRequests(queryClient, projectId);
    },
  );
}

/** POST .../requests/{id}/comments {body} -> the comment (the other side is notified). */
export function addRequestComment(projectId: string, requestId: number, body: string): Promise<DataRequestComment> {
  return apiFetch(`${monitoringPath(projectId)}/requests/${requestId}/comments`, {
    method: 'POST',
    body: { body },
    schema: dataRequestCommentSchema,
  });
}

export function useAddRequestComment(projectId: string, requestId: number) {
  return useInvalidatingMutation(
    (body: string) => addRequestComment(projectId, requestId, body),
    [requestsKey(projectId)],
  );
}
