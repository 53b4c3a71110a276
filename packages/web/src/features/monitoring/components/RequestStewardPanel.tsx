import { Button, FileInput, Group, Progress, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { type DataRequestStatus, REJECT_NEEDS_RESPONSE_MESSAGE, REQUEST_FILE_MAX_BYTES } from '@portal/shared';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { type DataRequestDetail, useRequestStewards } from '../api/requests-list';
import { useUpdateRequest } from '../api/requests-save';
import { useUploadRequestFile } from '../api/requests-upload';
import { REQUEST_STATUS_LABEL, TRANSITION_LABEL } from './request-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

/**
 * What a data steward does with a request: assign it, answer it, move it on (only the transitions the server
 * offers), and deliver a file with upload progress.
 */
export function RequestStewardPanel({ request }: { request: DataRequestDetail }) {
  const projectId = useMonitoringProjectId();
  const stewards = useRequestStewards(projectId, true);
  const update = useUpdateRequest(projectId, request.id);
  const [response, setResponse] = useState(request.response ?? '');
  const [responseError, setResponseError] = useState<string | null>(null);
  const [moving, setMoving] = useState<DataRequestStatus | null>(null);

  useEffect(() => setResponse(request.response ?? ''), [request.response]);

  const steps = request.transitions.filter((status) => status !== 'cancelled');

  const assign = (value: string | null) => {
    update.mutate(
      { assignee_id: value ? Number(value) : null },
      {
        onSuccess: (saved) =>
          toast.success(saved.assignee ? `Assigned to ${saved.assignee.name}.` : 'Nobody is assigned now.'),
        onError: (error) => toast.error(messageFor(error, 'The request could not be assigned.')),
      },
    );
  };

  const move = (status: DataRequestStatus) => {
    const answer = response.trim();
    if (status === 'rejected' && !answer) {
      setResponseError(REJECT_NEEDS_RESPONSE_MESSAGE);
      return;
    }
    setResponseError(null);
    setMoving(status);
    update.mutate(
      { status, ...(answer !== (request.response ?? '') ? { response: answer || null } : {}) },
      {
        onSuccess: () => toast.success(`The request is now ${REQUEST_STATUS_LABEL[status].toLowerCase()}.`),
        onError: (error) => {
          const fields = serverFieldErrors(error, ['response'] as const);
          if (fields.response) setResponseError(fields.response);
          else toast.error(messageFor(error, 'The status could not be changed.'));
        },
        onSettled: () => setMoving(null),
      },
    );
  };

  const saveResponse = () => {
    setResponseError(null);
    update.mutate(
      { response: response.trim() || null },
      {
        onSuccess: () => toast.success('Response saved.'),
        onError: (error) => toast.error(messageFor(error, 'The response could not be saved.')),
      },
    );
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="request-steward-title">
      <Title order={3} size="h5" id="request-steward-title">
        Handle the request
      </Title>
      <Select
        label="Assignee"
        placeholder={stewards.isPending ? 'Loading the data stewards…' : 'Nobody yet'}
        data={(stewards.data ?? []).map((person) => ({ value: String(person.id), label: person.name }))}
        value={request.assignee ? String(request.assignee.id) : null}
        onChange={assign}
        clearable
        disabled={update.isPending}
      />
      <Textarea
        label="Response"
        description="What you did or why the request is rejected; the requester reads it."
        rows={2}
        value={response}
        onChange={(event) => setResponse(event.currentTarget.value)}
        error={responseError}
      />
      <Group gap="sm" wrap="wrap">
        {steps.map((status) => (
          <Button
            key={status}
            variant={status === 'rejected' ? 'default' : 'light'}
            color={status === 'rejected' ? 'red.8' : undefined}
            onClick={() => move(status)}
            loading={moving === status}
            disabled={update.isPending}
          >
            {TRANSITION_LABEL[status]}
          </Button>
        ))}
        {response.trim() !== (request.response ?? '') && (
          <Button variant="default" onClick={saveResponse} disabled={update.isPending}>
            Save response
          </Button>
        )}
      </Group>
      {steps.length === 0 && (
        <Text size="sm" c="dimmed">
          This request is {REQUEST_STATUS_LABEL[request.status].toLowerCase()}: its status no longer changes.
        </Text>
      )}
      {request.abilities.upload && <DeliverFile request={request} />}
    </Stack>
  );
}

function DeliverFile({ request }: { request: DataRequestDetail }) {
  const projectId = useMonitoringProjectId();
  const upload = useUploadRequestFile(projectId, request.id);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = () => {
    if (!file) {
      setError('Choose a file.');
      return;
    }
    if (file.size > REQUEST_FILE_MAX_BYTES) {
      setError('The file is larger than 20 MB. Compress it or split it.');
      return;
    }
    setError(null);
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (saved) => {
          setFile(null);
          toast.success(
            saved.status === 'delivered' && request.status !== 'delivered'
              ? 'File delivered: the request is now delivered.'
              : 'File delivered.',
          );
        },
        onError: (failure) => {
          const fields = serverFieldErrors(failure, ['file'] as const);
          setError(fields.file ?? messageFor(failure, 'The file could not be uploaded. Please try again.'));
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <Stack gap="xs">
      <FileInput
        label={request.delivered_file ? 'Replace the delivered file' : 'Deliver a file'}
        description={
          request.status === 'in_progress'
            ? 'At most 20 MB. Uploading it marks the request delivered.'
            : 'At most 20 MB.'
        }
        placeholder="Choose a file"
        value={file}
        onChange={setFile}
        error={error}
        clearable
      />
      {progress !== null && (
        <Progress value={Math.round(progress * 100)} aria-label="Upload progress" animated size="sm" />
      )}
      <Group>
        <Button variant="light" onClick={send} loading={upload.isPending}>
          Upload file
        </Button>
      </Group>
    </Stack>
  );
}
