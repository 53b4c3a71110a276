import { Alert, Anchor, Button, Divider, Drawer, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDateTime, formatDay } from '../../../lib/dates';
import { type DataRequestDetail, requestFilePath, useRequest } from '../api/requests-list';
import { useAddRequestComment, useUpdateRequest } from '../api/requests-save';
import { RequestStewardPanel } from './RequestStewardPanel';
import { formatBytes, OverdueBadge, pagesText, REQUEST_FORMAT_LABEL, RequestStatusBadge } from './request-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

/** One data request in a side drawer: what was asked, the answer, the file, the comments and the next steps. */
export function RequestDrawer({ requestId, onClose }: { requestId: number | null; onClose: () => void }) {
  const projectId = useMonitoringProjectId();
  const request = useRequest(projectId, requestId);
  const notFound = request.error instanceof ApiError && request.error.status === 404;
  return (
    <Drawer
      opened={requestId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={request.data ? request.data.title : 'Data request'}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {requestId === null ? null : request.isPending ? (
        <LoadingRows label="Loading the request" />
      ) : notFound ? (
        <Text>This request does not exist or is not yours to see.</Text>
      ) : request.isError ? (
        <LoadFailure
          error={request.error}
          fallback="The request could not be loaded."
          retrying={request.isFetching}
          onRetry={() => void request.refetch()}
        />
      ) : (
        <RequestDetails request={request.data} />
      )}
    </Drawer>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} component="div">
        {children}
      </Text>
    </Stack>
  );
}

function RequestDetails({ request }: { request: DataRequestDetail }) {
  const projectId = useMonitoringProjectId();
  const update = useUpdateRequest(projectId, request.id);
  const [cancelling, setCancelling] = useState(false);

  const cancel = () => {
    setCancelling(false);
    update.mutate(
      { status: 'cancelled' },
      {
        onSuccess: () => toast.success('Your request was cancelled.'),
        onError: (error) => toast.error(messageFor(error, 'The request could not be cancelled.')),
      },
    );
  };

  return (
    <Stack gap="md">
      <Group gap="xs">
        <RequestStatusBadge status={request.status} />
        {request.overdue && <OverdueBadge />}
        {request.patient_level && (
          <Text size="sm" c="red.8" fw={600}>
            Patient-level data
          </Text>
        )}
      </Group>
      <Fact label="Requested by">
        {request.requester?.name ?? 'Unknown'} on {formatDateTime(request.created_at)}
      </Fact>
      <Fact label="Purpose">{request.purpose}</Fact>
      <Fact label="Pages">{pagesText(request)}</Fact>
      <Group grow align="flex-start">
        <Fact label="Period">
          {formatDay(request.period_from)} to {formatDay(request.period_to)}
        </Fact>
        <Fact label="Format">{REQUEST_FORMAT_LABEL[request.format]}</Fact>
        <Fact label="Needed by">{formatDay(request.needed_by)}</Fact>
      </Group>
      {request.justification && <Fact label="Justification (minimum necessary)">{request.justification}</Fact>}
      <Fact label="Assigned to">{request.assignee?.name ?? 'Nobody yet'}</Fact>
      {request.response && <Fact label="Response of the data stewards">{request.response}</Fact>}
      {request.delivered_file && (
        <Alert color="green" variant="light" title="Delivered file">
          <Anchor href={requestFilePath(projectId, request.id)} download={request.delivered_file.name}>
            Download {request.delivered_file.name} ({formatBytes(request.delivered_file.size)})
          </Anchor>
        </Alert>
      )}
      {request.abilities.cancel && (
        <Group>
          <Button variant="default" color="red.8" onClick={() => setCancelling(true)} loading={update.isPending}>
            Cancel request
          </Button>
        </Group>
      )}

      {request.abilities.steward && (
        <>
          <Divider />
          <RequestStewardPanel request={request} />
        </>
      )}

      <Divider />
      <Comments request={request} />

      <ConfirmActionModal
        opened={cancelling}
        title="Cancel request"
        message={`Cancel the request "${request.title}"? The data stewards stop working on it.`}
        confirmLabel="Cancel request"
        danger
        onConfirm={cancel}
        onCancel={() => setCancelling(false)}
      />
    </Stack>
  );
}

function Comments({ request }: { request: DataRequestDetail }) {
  const projectId = useMonitoringProjectId();
  const add = useAddRequestComment(projectId, request.id);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setError('Write a comment.');
      return;
    }
    setError(null);
    add.mutate(body.trim(), {
      onSuccess: () => setBody(''),
      onError: (failure) => setError(messageFor(failure, 'The comment could not be sent.')),
    });
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="request-comments-title">
      <Title order={3} size="h5" id="request-comments-title">
        Comments
      </Title>
      {request.comments.length === 0 ? (
        <Text c="dimmed" size="sm">
          No comments yet.
        </Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {request.comments.map((comment) => (
            <Paper component="li" key={comment.id} withBorder p="sm" radius="sm">
              <Text size="xs" c="dimmed">
                {comment.author?.name ?? 'Unknown'}, {formatDateTime(comment.created_at)}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {comment.body}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Textarea
            label="Add a comment"
            rows={2}
            value={body}
            onChange={(event) => setBody(event.currentTarget.value)}
            error={error}
          />
          <Group>
            <Button type="submit" variant="light" loading={add.isPending}>
              Send comment
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
