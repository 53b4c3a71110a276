import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { STD_LIMITS } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { messageFor } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { serverFieldErrors } from '../../lib/field-errors';
import { ConfirmActionModal } from '../ConfirmActionModal';
import { ErrorNotice, LoadingRows, QueryFailure } from '../page-parts';
import { type StdElementHit, type StdLink, useCreateLink, useDeleteLink, useElementSearch, useLinks } from './api';

export const NOT_LINKED = 'Not linked to any standard yet.';
export const NO_ELEMENTS = 'No standard elements match. Standards are added in the Standards app (Create).';

const TARGET_WORDS = { policy: 'policy', measure: 'measure' } as const;

/** The first words of an element's wording, for the picker's results. */
function excerpt(wording: string, max = 220): string {
  const flat = wording.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

export interface AddStandardsPanelProps {
  projectId: string;
  targetType: 'policy' | 'measure';
  targetId: number;
  /** What the target is called on screen ("4.2 Hand hygiene", "Falls with injury"). */
  targetLabel: string;
  canEdit: boolean;
}

/**
 * The add-standards screens' shared part (DOMAIN.md 0.1 and 3.3): the standard elements a policy or a measure is
 * linked to (one link table), and, for those who may edit, a picker searching the project's elements by reference
 * or wording to link one more with an optional note. The Standards app then shows the policy's or the measure's
 * live state on the element.
 */
export function AddStandardsPanel({ projectId, targetType, targetId, targetLabel, canEdit }: AddStandardsPanelProps) {
  const links = useLinks(projectId, targetType, targetId);
  const linkedNodes = new Set((links.data?.links ?? []).map((link) => link.node_id));
  return (
    <Stack gap="lg">
      <LinkedStandards
        projectId={projectId}
        targetType={targetType}
        targetLabel={targetLabel}
        canEdit={canEdit}
        query={links}
      />
      {canEdit && (
        <ElementPicker
          projectId={projectId}
          targetType={targetType}
          targetId={targetId}
          targetLabel={targetLabel}
          linkedNodes={linkedNodes}
        />
      )}
    </Stack>
  );
}

interface LinkedProps {
  projectId: string;
  targetType: 'policy' | 'measure';
  targetLabel: string;
  canEdit: boolean;
  query: ReturnType<typeof useLinks>;
}

function LinkedStandards({ projectId, targetType, targetLabel, canEdit, query }: LinkedProps) {
  const remove = useDeleteLink(projectId);
  const [confirming, setConfirming] = useState<StdLink | null>(null);

  async function unlink(link: StdLink) {
    setConfirming(null);
    try {
      await remove.mutateAsync(link.id);
      toast.success(`Unlinked ${link.ref_id}.`);
    } catch (error) {
      toast.error(messageFor(error, 'The link could not be removed. Please try again.'));
    }
  }

  let body: ReactNode;
  if (query.isPending) body = <LoadingRows label="Loading the linked standards" rows={2} />;
  else if (query.isError)
    body = <QueryFailure query={query} fallback="The linked standards could not be loaded. Please try again." />;
  else if (query.data.links.length === 0) body = <Text c="dimmed">{NOT_LINKED}</Text>;
  else
    body = (
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" aria-label="Linked standards">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Element</Table.Th>
              <Table.Th scope="col">Title</Table.Th>
              <Table.Th scope="col">Framework</Table.Th>
              <Table.Th scope="col">Note</Table.Th>
              <Table.Th scope="col">Linked</Table.Th>
              {canEdit && (
                <Table.Th scope="col" w={60}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.links.map((link) => (
              <Table.Tr key={link.id} data-link-id={link.id}>
                <Table.Td ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {link.ref_id}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{link.title}</Table.Td>
                <Table.Td>{link.framework}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{link.note || '—'}</Table.Td>
                <Table.Td>
                  <Text size="sm">{link.created_by}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDate(link.created_at)}
                  </Text>
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <Tooltip label="Unlink">
                      <ActionIcon
                        variant="subtle"
                        color="red.9"
                        aria-label={`Unlink ${link.ref_id}`}
                        loading={remove.isPending && remove.variables === link.id}
                        onClick={() => setConfirming(link)}
                      >
                        <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                          <path
                            d="M6 6l12 12M18 6L6 18"
                            fill="none"
                            stroke="currentColor"
                            strokeWidth={2}
                            strokeLinecap="round"
                          />
                        </svg>
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="linked-standards">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="linked-standards">
          Standards this {TARGET_WORDS[targetType]} supports
        </Title>
        {body}
      </Stack>
      <ConfirmActionModal
        opened={confirming !== null}
        title="Unlink standard"
        message={
          confirming
            ? `Unlink ${confirming.ref_id} ${confirming.title} from "${targetLabel}"? The element no longer counts this ${TARGET_WORDS[targetType]} as evidence.`
            : ''
        }
        confirmLabel="Unlink"
        danger
        onConfirm={() => confirming && void unlink(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </Paper>
  );
}

interface PickerProps {
  projectId: string;
  targetType: 'policy' | 'measure';
  targetId: number;
  targetLabel: string;
  linkedNodes: ReadonlySet<number>;
}

function ElementPicker({ projectId, targetType, targetId, targetLabel, linkedNodes }: PickerProps) {
  const [search, setSearch] = useState('');
  const [settled] = useDebouncedValue(search.trim().slice(0, STD_LIMITS.search), 300);
  const hits = useElementSearch(projectId, targetType, settled);
  const create = useCreateLink(projectId);
  const [chosen, setChosen] = useState<StdElementHit | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ note?: string; form?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen || create.isPending) return;
    setErrors({});
    try {
      await create.mutateAsync({
        node_id: chosen.node_id,
        target_type: targetType,
        target_id: targetId,
        note: note.trim(),
      });
      toast.success(`Linked "${targetLabel}" to ${chosen.ref_id}.`);
      setChosen(null);
      setNote('');
    } catch (error) {
      const fields = serverFieldErrors(error, ['note', 'node_id', 'target_id'] as const);
      setErrors({
        note: fields.note,
        form: fields.node_id ?? fields.target_id ?? messageFor(error, 'The link could not be saved. Please try again.'),
      });
    }
  }

  const elements = hits.data?.elements ?? [];
  let results: ReactNode;
  if (hits.isPending) results = <LoadingRows label="Searching the standard elements" rows={3} />;
  else if (hits.isError && !hits.data)
    results = <QueryFailure query={hits} fallback="The standard elements could not be searched. Please try again." />;
  else if (elements.length === 0)
    results = (
      <Stack gap={4} data-testid="no-elements">
        <Text c="dimmed">{NO_ELEMENTS}</Text>
        <Anchor component={Link} to={`/app/standards/${projectId}/create`} size="sm" w="fit-content">
          Open the Standards app
        </Anchor>
      </Stack>
    );
  else
    results = (
      <Radio.Group
        label="Standard elements found"
        description={hits.data?.more ? 'Only the first matches are shown: add words to narrow the search.' : undefined}
        value={chosen ? String(chosen.node_id) : null}
        onChange={(value) => {
          setChosen(elements.find((hit) => String(hit.node_id) === value) ?? null);
          setErrors({});
        }}
      >
        <Stack gap="xs" mt="xs">
          {elements.map((hit) => {
            const linked = linkedNodes.has(hit.node_id);
            const selected = chosen?.node_id === hit.node_id;
            return (
              <Radio.Card
                key={hit.node_id}
                value={String(hit.node_id)}
                disabled={linked}
                radius="md"
                p="sm"
                data-node-id={hit.node_id}
                aria-label={`${hit.ref_id} ${hit.title}`}
                style={{
                  borderColor: selected ? 'var(--mantine-color-blue-7)' : undefined,
                  borderWidth: selected ? 2 : 1,
                  opacity: linked ? 0.7 : undefined,
                }}
              >
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator mt={2} />
                  <Stack gap={2} miw={0}>
                    <Group gap="xs" wrap="wrap">
                      <Text ff="monospace" fw={700} size="sm">
                        {hit.ref_id}
                      </Text>
                      <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {hit.title}
                      </Text>
                      {linked && (
                        <Badge variant="light" color="gray" c="dark.8" size="sm">
                          Already linked
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {hit.framework}
                      {hit.path ? ` · ${hit.path}` : ''}
                    </Text>
                    {hit.wording && (
                      <Text size="sm" c="gray.8" style={{ overflowWrap: 'anywhere' }}>
                        {excerpt(hit.wording)}
                      </Text>
                    )}
                  </Stack>
                </Group>
              </Radio.Card>
            );
          })}
        </Stack>
      </Radio.Group>
    );

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="link-standard">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="h4" id="link-standard">
            Link to a standard element
          </Title>
          <Text size="sm" c="dimmed">
            Find the element this {TARGET_WORDS[targetType]} meets, by its reference or by its words.
          </Text>
        </Stack>
        <TextInput
          label="Search standard elements"
          description="A reference such as PC.02.01.01 or §482.23, or words of the element."
          placeholder="Reference or words"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maxLength={STD_LIMITS.search}
          maw={560}
          type="search"
        />
        {results}
        {chosen && (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Link the chosen element">
            <Stack gap="sm">
              <Text size="sm">
                Chosen:{' '}
                <Text span fw={700} ff="monospace">
                  {chosen.ref_id}
                </Text>{' '}
                {chosen.title}
              </Text>
              <Textarea
                label="Note (optional)"
                description={`How this ${TARGET_WORDS[targetType]} meets the element, e.g. the section that covers it.`}
                value={note}
                onChange={(event) => setNote(event.currentTarget.value)}
                maxLength={STD_LIMITS.linkNote}
                rows={3}
                maw={640}
                error={errors.note}
              />
              <ErrorNotice message={errors.form} />
              <Group gap="sm">
                <Button type="submit" loading={create.isPending}>
                  Link
                </Button>
                <Button
                  variant="default"
                  onClick={() => {
                    setChosen(null);
                    setErrors({});
                  }}
                >
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
