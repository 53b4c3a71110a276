import { Alert, Button, Code, Group, Stack, Switch, Table, Text, Textarea } from '@mantine/core';
import { GUEST_RANGES_MAX } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { LoadingRows, PageHeading, QueryBody, SectionCard } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type GuestReadingSettings,
  type GuestReads,
  useGuestReading,
  useGuestReads,
  useSaveGuestReading,
} from '../api/guest-reading';
import { usePolicyProjectId } from './use-policy-project';

/**
 * /app/policy_management/{projectId}/guest-reading (the numbering section's administrators): reading the published
 * policies without an account from the listed networks (the unit kiosks'), and the log of what guests read.
 */
export function GuestReadingPage() {
  usePageTitle('Guest reading');
  const projectId = usePolicyProjectId();
  const setting = useGuestReading(projectId);
  return (
    <Stack gap="lg" w="100%" maw={900}>
      <PageHeading title="Guest reading">
        Let shared computers on the units search and read the published policies without signing in. Drafts, people's
        names and attestation are never shown to guests, and every guest read is logged with its address.
      </PageHeading>
      <SectionCard id="guest-setting-heading" title="Setting">
        <QueryBody
          query={setting}
          fallback="The guest reading setting could not be loaded. Please try again."
          loadingLabel="Loading the guest reading setting"
          rows={3}
        >
          {(data) => <SettingForm key={data.updated_at ?? 'never'} projectId={projectId} setting={data} />}
        </QueryBody>
      </SectionCard>
      <GuestReadsLog projectId={projectId} />
    </Stack>
  );
}

/** The 400's messages about the ranges (one per bad line, each naming it), or its message for anything else. */
function rangeErrors(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const errors = (error.body as { errors?: Record<string, string[]> } | null)?.errors ?? {};
  const found = Object.entries(errors)
    .filter(([key]) => key === 'ip_ranges' || key.startsWith('ip_ranges.'))
    .flatMap(([, messages]) => messages.slice(0, 1));
  return found.length ? found : [error.message];
}

function SettingForm({ projectId, setting }: { projectId: string; setting: GuestReadingSettings }) {
  const save = useSaveGuestReading(projectId);
  const [enabled, setEnabled] = useState(setting.enabled);
  const [text, setText] = useState(setting.ip_ranges.join('\n'));
  const [errors, setErrors] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const readerAddress = `${window.location.origin}/read/${projectId}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ranges = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    setFailure(null);
    if (ranges.length > GUEST_RANGES_MAX) return setErrors([`At most ${GUEST_RANGES_MAX} address ranges.`]);
    if (enabled && ranges.length === 0) return setErrors(['List at least one address range to turn guest reading on.']);
    setErrors([]);
    try {
      await save.mutateAsync({ enabled, ip_ranges: ranges });
      toast.success(enabled ? 'Guest reading is on.' : 'Guest reading is off.');
    } catch (error) {
      const messages = rangeErrors(error);
      if (messages.length) setErrors(messages);
      else setFailure(messageFor(error, 'The setting could not be saved. Please try again.'));
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="guest-setting-heading">
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <Switch
          label="Let guests read the published policies without signing in"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
        />
        <Textarea
          label="Allowed networks"
          description="One per line: an address such as 10.1.2.3 or a range such as 10.20.0.0/16 (the units' computers)."
          rows={5}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={
            // One line per bad entry (Mantine renders the error in a <p>: spans, not a list).
            errors.length
              ? errors.map((message) => (
                  <span key={message} style={{ display: 'block' }}>
                    {message}
                  </span>
                ))
              : undefined
          }
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Text size="sm" data-testid="your-address">
          Your address: <Code>{setting.your_address}</Code> (
          {setting.you_are_inside ? 'inside the saved ranges' : 'outside the saved ranges'})
        </Text>
        {setting.enabled && (
          <Text size="sm">
            Guests open the policies at <Code style={{ overflowWrap: 'anywhere' }}>{readerAddress}</Code>
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What a guest did, in words: searched "…", opened 3.1 Title, followed a link. */
export function guestReadSummary(read: GuestReads['reads'][number]): string {
  const policy = read.document
    ? `${read.document.number ? `${read.document.number} ` : ''}${read.document.title}`
    : 'a policy since deleted';
  if (read.kind === 'search') return `Searched “${read.query ?? ''}”`;
  if (read.kind === 'link') return read.document ? `Followed a link to ${policy}` : 'Followed a link';
  return `Opened ${policy}`;
}

function GuestReadsLog({ projectId }: { projectId: string }) {
  const [page, setPage] = useState(1);
  const reads = useGuestReads(projectId, page);
  return (
    <SectionCard
      id="guest-reads-heading"
      title="Recent guest reads"
      description="Newest first, with the address each came from."
    >
      <QueryBody
        query={reads}
        fallback="The guest reads could not be loaded. Please try again."
        loadingLabel="Loading the guest reads"
        loading={<LoadingRows label="Loading the guest reads" rows={4} />}
      >
        {(data) =>
          data.reads.length === 0 ? (
            <Text c="dimmed">No guest has read a policy yet.</Text>
          ) : (
            <Stack gap="sm">
              <Table.ScrollContainer minWidth={0}>
                <Table verticalSpacing={6} aria-labelledby="guest-reads-heading">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Address</Table.Th>
                      <Table.Th>What</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.reads.map((read, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a page of the log is shown as it came
                      <Table.Tr key={index}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(read.at)}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{read.ip}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{guestReadSummary(read)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {data.total > data.page_size && (
                <Group gap="xs">
                  <Button variant="default" size="xs" disabled={page === 1} onClick={() => setPage(page - 1)}>
                    Newer
                  </Button>
                  <Button
                    variant="default"
                    size="xs"
                    disabled={page * data.page_size >= data.total}
                    onClick={() => setPage(page + 1)}
                  >
                    Older
                  </Button>
                </Group>
              )}
            </Stack>
          )
        }
      </QueryBody>
    </SectionCard>
  );
}
