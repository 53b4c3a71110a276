import {
  Anchor,
  Badge,
  Button,
  Fieldset,
  FileInput,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  STD_EVIDENCE_FILE_ACCEPT,
  STD_EVIDENCE_FILE_HELP,
  STD_EVIDENCE_KIND_LABELS,
  STD_EVIDENCE_LIMITS,
  STD_EVIDENCE_STATUS_LABELS,
  STD_EVIDENCE_STATUSES,
  type StdEvidenceKind,
  type StdEvidenceStatus,
  stdEvidenceExtension,
  stdEvidenceFileFieldsSchema,
  stdEvidenceInputSchema,
} from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime, formatDay } from '../../../lib/dates';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import type { StdElement } from '../api/elements';
import {
  evidenceFileUrl,
  type StdEvidenceItem,
  useAddEvidence,
  useDeleteEvidence,
  useUpdateEvidence,
  useUploadEvidence,
} from '../api/evidence';
import { FactBadge } from './std-parts';

/**
 * The element's evidence in its panel (DOMAIN.md 3.3 "evidence list with status/expiry"): links, files and notes with
 * their review status and expiry. Whoever may link evidence to the element adds and removes it; those who may change
 * the element approve or reject what waits in review.
 */
export function ElementEvidence({ projectId, element }: { projectId: string; element: StdElement }) {
  const update = useUpdateEvidence(projectId);
  const remove = useDeleteEvidence(projectId);
  const [removing, setRemoving] = useState<StdEvidenceItem | null>(null);
  const canLink = element.abilities.link;
  const canReview = element.abilities.edit;

  const review = (item: StdEvidenceItem, status: 'approved' | 'rejected') =>
    update.mutate(
      { id: item.id, body: { status } },
      {
        onSuccess: () => toast.success(status === 'approved' ? 'Evidence approved.' : 'Evidence rejected.'),
        onError: (error) => toast.error(messageFor(error, 'The evidence could not be changed. Please try again.')),
      },
    );

  const confirmRemove = () => {
    if (!removing) return;
    const { id } = removing;
    setRemoving(null);
    remove.mutate(id, {
      onSuccess: () => toast.success('Evidence removed.'),
      onError: (error) => toast.error(messageFor(error, 'The evidence could not be removed. Please try again.')),
    });
  };

  return (
    <Stack gap="xs" component="section" aria-label="Evidence">
      <Title order={3} fz="h4">
        Evidence
      </Title>
      {element.evidence.length === 0 ? (
        <Text size="sm" c="dimmed">
          No link, file or note is attached to this element yet.
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {element.evidence.map((item) => (
            <EvidenceItem
              key={item.id}
              projectId={projectId}
              item={item}
              onReview={canReview && item.status === 'in_review' ? (status) => review(item, status) : undefined}
              reviewing={update.isPending && update.variables?.id === item.id}
              onRemove={canLink ? () => setRemoving(item) : undefined}
            />
          ))}
        </Stack>
      )}
      {canLink && <AddEvidence key={element.id} projectId={projectId} element={element} />}
      <ConfirmActionModal
        opened={removing !== null}
        title="Remove this evidence?"
        message={
          removing
            ? `“${removing.title}” will no longer be evidence of ${element.node.ref_id}${
                removing.kind === 'file' ? ', and its file is deleted' : ''
              }.`
            : ''
        }
        confirmLabel="Remove"
        danger
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
    </Stack>
  );
}

/** Status badge colours; the dark shades keep the text readable on the light badge. */
const STATUS_COLORS: Record<StdEvidenceStatus, string> = {
  approved: 'green.9',
  rejected: 'red.9',
  in_review: 'blue.9',
  draft: 'gray.8',
};

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function EvidenceItem({
  projectId,
  item,
  onReview,
  reviewing,
  onRemove,
}: {
  projectId: string;
  item: StdEvidenceItem;
  onReview: ((status: 'approved' | 'rejected') => void) | undefined;
  reviewing: boolean;
  onRemove: (() => void) | undefined;
}) {
  const wrap = { overflowWrap: 'anywhere' } as const;
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {STD_EVIDENCE_KIND_LABELS[item.kind]}
              {item.file ? ` · ${fileSize(item.file.size)}` : ''}
            </Text>
            {item.kind === 'link' && item.url ? (
              <Anchor href={item.url} target="_blank" rel="noopener noreferrer" fw={600} size="sm" style={wrap}>
                {item.title}
              </Anchor>
            ) : item.kind === 'file' && item.file ? (
              <Anchor
                href={evidenceFileUrl(projectId, item.id)}
                download={item.file.name}
                fw={600}
                size="sm"
                style={wrap}
                aria-label={`${item.title} (download ${item.file.name})`}
              >
                {item.title}
              </Anchor>
            ) : (
              <Text fw={600} size="sm" style={wrap}>
                {item.title}
              </Text>
            )}
          </Stack>
          {onRemove && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red.9"
              aria-label={`Remove ${item.title}`}
              onClick={onRemove}
            >
              Remove
            </Button>
          )}
        </Group>
        <Group gap={6} wrap="wrap">
          <Badge variant="light" color={STATUS_COLORS[item.status]} tt="none" fw={600}>
            {STD_EVIDENCE_STATUS_LABELS[item.status]}
          </Badge>
          {item.expired && <FactBadge tone="bad">Expired</FactBadge>}
          {item.expiring && <FactBadge tone="warn">Expiring</FactBadge>}
          {item.expires_on && (
            <Text size="xs" c={item.expired ? 'red.9' : item.expiring ? 'orange.9' : 'dark.6'} component="span">
              {item.expired ? 'Expired on' : 'Expires'} {formatDay(item.expires_on)}
            </Text>
          )}
        </Group>
        {item.note && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', ...wrap }}>
            {item.note}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Added{item.created_by ? ` by ${item.created_by.name}` : ''} · {formatDateTime(item.created_at)}
        </Text>
        {onReview && (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="light"
              color="green.9"
              aria-label={`Approve ${item.title}`}
              loading={reviewing}
              onClick={() => onReview('approved')}
            >
              Approve
            </Button>
            <Button
              size="compact-sm"
              variant="light"
              color="red.9"
              aria-label={`Reject ${item.title}`}
              disabled={reviewing}
              onClick={() => onReview('rejected')}
            >
              Reject
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

// ------------------------------------------------------------------------------------------------ add evidence

type Field = 'title' | 'url' | 'file' | 'note' | 'expires_on' | 'status';
const FIELDS: Field[] = ['title', 'url', 'file', 'note', 'expires_on', 'status'];
const KIND_DATA = (['link', 'file', 'note'] as const).map((value) => ({
  value,
  label: STD_EVIDENCE_KIND_LABELS[value],
}));
const STATUS_DATA = STD_EVIDENCE_STATUSES.map((value) => ({ value, label: STD_EVIDENCE_STATUS_LABELS[value] }));

interface Values {
  kind: StdEvidenceKind;
  title: string;
  url: string;
  file: File | null;
  note: string;
  expires_on: string;
  status: StdEvidenceStatus;
}

/** Adds a link, a file or a note (POST /req-assessments/{id}/evidence, or /evidence/file for a file). */
function AddEvidence({ projectId, element }: { projectId: string; element: StdElement }) {
  const reviewer = element.abilities.edit;
  const add = useAddEvidence(projectId, element.id);
  const upload = useUploadEvidence(projectId, element.id);
  const empty: Values = {
    kind: 'link',
    title: '',
    url: '',
    file: null,
    note: '',
    expires_on: '',
    status: reviewer ? 'approved' : 'in_review',
  };
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function change<K extends keyof Values>(field: K, value: Values[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFailure(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const status = reviewer ? values.status : undefined;
    const expires = values.expires_on.trim() === '' ? null : values.expires_on.trim();
    try {
      if (values.kind === 'file') {
        const found: FieldErrors<Field> = {};
        const file = values.file;
        if (!file) found.file = 'Choose a file.';
        else if (!stdEvidenceExtension(file.name))
          found.file = `Choose a file of a kind kept as evidence: ${STD_EVIDENCE_FILE_HELP}`;
        else if (file.size > STD_EVIDENCE_LIMITS.fileBytes)
          found.file = 'The file is larger than 10 MB. Compress it or split it.';
        else if (file.size === 0) found.file = 'The file is empty.';
        const fields = stdEvidenceFileFieldsSchema.safeParse({
          ...(values.title.trim() ? { title: values.title } : {}),
          note: values.note,
          status,
          expires_on: expires,
        });
        if (!fields.success) Object.assign(found, schemaFieldErrors<Field>(fields.error));
        if (Object.keys(found).length > 0 || !file || !fields.success) {
          setErrors(found);
          return;
        }
        await upload.mutateAsync({
          file,
          title: fields.data.title ?? '',
          note: fields.data.note,
          status: fields.data.status ?? null,
          expires_on: fields.data.expires_on,
        });
      } else {
        const parsed = stdEvidenceInputSchema.safeParse(
          values.kind === 'link'
            ? { kind: 'link', title: values.title, url: values.url, note: values.note, status, expires_on: expires }
            : { kind: 'note', title: values.title, note: values.note, status, expires_on: expires },
        );
        if (!parsed.success) {
          setErrors(schemaFieldErrors<Field>(parsed.error));
          return;
        }
        await add.mutateAsync(parsed.data);
      }
      toast.success('Evidence added.');
      setValues({ ...empty, kind: values.kind });
      setErrors({});
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      const message =
        Object.keys(fields).length > 0
          ? 'Some fields need attention. See the messages at the fields.'
          : messageFor(error, 'The evidence could not be added. Please try again.');
      setFailure(message);
      toast.error(message);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Add evidence">
      <Fieldset legend="Add evidence" radius="md" styles={{ legend: { fontWeight: 700 } }}>
        <Stack gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`std-evidence-kind-${element.id}`}>
              Kind of evidence
            </Text>
            <SegmentedControl
              aria-labelledby={`std-evidence-kind-${element.id}`}
              data={KIND_DATA}
              value={values.kind}
              onChange={(value) => {
                change('kind', value as StdEvidenceKind);
                setErrors({});
              }}
            />
          </Stack>
          <TextInput
            label="Title"
            description={values.kind === 'file' ? 'Leave it empty to use the file name.' : undefined}
            required={values.kind !== 'file'}
            maxLength={STD_EVIDENCE_LIMITS.title}
            value={values.title}
            onChange={(event) => change('title', event.currentTarget.value)}
            error={errors.title}
          />
          {values.kind === 'link' && (
            <TextInput
              label="Web address"
              description="The page or document where the evidence is kept (https:// or http://)."
              placeholder="https://"
              required
              maxLength={STD_EVIDENCE_LIMITS.url}
              value={values.url}
              onChange={(event) => change('url', event.currentTarget.value)}
              error={errors.url}
            />
          )}
          {values.kind === 'file' && (
            <FileInput
              label="File to upload"
              description={STD_EVIDENCE_FILE_HELP}
              placeholder="Choose a file"
              accept={STD_EVIDENCE_FILE_ACCEPT}
              required
              clearable
              value={values.file}
              onChange={(file) => change('file', file)}
              error={errors.file}
            />
          )}
          <Textarea
            label="Note text"
            description={values.kind === 'note' ? 'What was seen or done, and where it is recorded.' : 'Optional.'}
            required={values.kind === 'note'}
            rows={2}
            resize="vertical"
            maxLength={STD_EVIDENCE_LIMITS.note}
            value={values.note}
            onChange={(event) => change('note', event.currentTarget.value)}
            error={errors.note}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              type="date"
              label="Expires on"
              description="Leave it empty if it does not expire."
              value={values.expires_on}
              onChange={(event) => change('expires_on', event.currentTarget.value)}
              error={errors.expires_on}
            />
            {reviewer && (
              <Select
                label="Evidence status"
                data={STATUS_DATA}
                value={values.status}
                onChange={(value) => value && change('status', value as StdEvidenceStatus)}
                allowDeselect={false}
                error={errors.status}
              />
            )}
          </SimpleGrid>
          {!reviewer && (
            <Text size="xs" c="dimmed">
              Your evidence waits in review until someone who may change this element approves it.
            </Text>
          )}
          <ErrorNotice message={failure} />
          <Group>
            <Button type="submit" variant="light" loading={add.isPending || upload.isPending}>
              Add evidence
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
