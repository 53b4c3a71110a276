import { type DataRequestDetail, dataRequestDetailSchema } from '@portal/shared';
import { useApiMutation } from '../../../lib/api-hooks';
import { xhrUpload } from '../../../lib/xhr-upload';
import { monitoringPath } from './keys';
import { invalidateRequests, requestKey } from './requests-list';

/**
 * POST .../requests/{id}/file (multipart field "file", at most 20 MB): a data steward delivers the file; an
 * in-progress request becomes delivered. `onProgress` gets the share sent so far (0 to 1).
 */
export function uploadRequestFile(
  projectId: string,
  requestId: number,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<DataRequestDetail> {
  const body = new FormData();
  body.append('file', file);
  return xhrUpload(`${monitoringPath(projectId)}/requests/${requestId}/file`, {
    body,
    schema: dataRequestDetailSchema,
    onProgress,
  });
}

export function useUploadRequestFile(projectId: string, requestId: number) {
  return useApiMutation(
    ({ file, onProgress }: { file: File; onProgress?: (fraction: number) => void }) =>
      uploadRequestFile(projectId, requestId, file, onProgress),
    (queryClient, request) => {
      queryClient.setQueryData(requestKey(projectId, requestId), request);
      return invalidateRequests(queryClient, projectId);
    },
  );
}
