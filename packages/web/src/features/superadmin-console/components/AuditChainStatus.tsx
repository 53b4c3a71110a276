import { Alert, Button, Code, Group, Loader, Text } from '@mantine/core';
import { messageFor } from '../../../lib/api';
import { useAuditChain } from '../api/get-audit-events';

// The light alerts' coloured titles are too pale on their tint for WCAG AA: the title keeps the text colour and the
// tint and border say the state.
const TITLE = { title: { color: 'var(--mantine-color-text)' }, label: { color: 'var(--mantine-color-text)' } };

/**
 * Whether the audit trail's hash chain verifies (each event chained to the one before it by SHA-256): checked when
 * the audit log opens, and again on demand. A broken link names the first event that no longer fits.
 */
export function AuditChainStatus() {
  const chain = useAuditChain();
  const again = (
    <Button size="compact-sm" variant="default" loading={chain.isFetching} onClick={() => void chain.refetch()}>
      Check again
    </Button>
  );
  if (chain.isPending) {
    return (
      <Group gap="xs" role="status" aria-label="Verifying the audit trail">
        <Loader size="xs" />
        <Text size="sm">Verifying the audit trail…</Text>
      </Group>
    );
  }
  if (chain.isError) {
    return (
      <Alert color="red" variant="light" title="The audit trail could not be verified" styles={TITLE}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">{messageFor(chain.error, 'Please try again.')}</Text>
          {again}
        </Group>
      </Alert>
    );
  }
  const report = chain.data;
  if (!report.ok && report.broken) {
    return (
      <Alert color="red" variant="light" title="The audit trail does not verify" role="alert" styles={TITLE}>
        <Group justify="space-between" gap="sm" align="flex-start">
          <Text size="sm">
            First broken link: position {report.broken.seq}
            {report.broken.event_id !== null && <> (event {report.broken.event_id})</>}. {report.broken.reason}{' '}
            {report.verified.toLocaleString('en-US')} events before it verify.
          </Text>
          {again}
        </Group>
      </Alert>
    );
  }
  return (
    <Alert color="green" variant="light" title="The audit trail verifies" styles={TITLE}>
      <Group justify="space-between" gap="sm" align="flex-start">
        <Text size="sm">
          {report.verified.toLocaleString('en-US')} events chained, each to the one before it.
          {report.head_hash && (
            <>
              {' '}
              Head hash <Code>{report.head_hash.slice(0, 16)}</Code>
            </>
          )}
        </Text>
        {again}
      </Group>
    </Alert>
  );
}
