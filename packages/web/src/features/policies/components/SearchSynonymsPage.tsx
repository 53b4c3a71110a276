import { Badge, Button, Group, List, Modal, Stack, TagsInput, Text } from '@mantine/core';
import { SUGGESTED_SYNONYM_GROUPS, SYNONYM_GROUP_MAX, synonymGroupInputSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice, FailureAlert, PageHeading, QueryBody, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type SynonymGroup,
  useAddSuggestedSynonyms,
  useCreateSynonymGroup,
  useDeleteSynonymGroup,
  useSynonymGroups,
  useUpdateSynonymGroup,
} from '../api/search-synonyms';
import { usePolicyProjectId } from './use-policy-project';

const describe = (terms: readonly string[]) => terms.map((term) => `“${term}”`).join(', ');

/**
 * Route `search-synonyms` (policy administrators): groups of words that search treats as one, so "handwashing"
 * finds the Hand hygiene policy. Add, change (a tags input) and delete groups; an empty list offers the suggested
 * ones.
 */
export function SearchSynonymsPage() {
  usePageTitle('Search synonyms');
  const projectId = usePolicyProjectId();
  const groups = useSynonymGroups(projectId);
  const [editing, setEditing] = useState<SynonymGroup | null>(null);
  const [deleting, setDeleting] = useState<SynonymGroup | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const remove = useDeleteSynonymGroup(projectId);
  const suggest = useAddSuggestedSynonyms(projectId);

  const removeNow = async (group: SynonymGroup) => {
    setDeleting(null);
    try {
      await remove.mutateAsync(group.id);
      toast.success('Synonym group deleted.');
    } catch (error) {
      setFailure(messageFor(error, 'The group could not be deleted. Please try again.'));
    }
  };
  const addSuggested = async () => {
    setFailure(null);
    try {
      await suggest.mutateAsync();
      toast.success('Suggested synonyms added.');
    } catch (error) {
      setFailure(messageFor(error, 'The suggested synonyms could not be added. Please try again.'));
    }
  };

  return (
    <Stack gap="lg" w="100%" maw={900}>
      <PageHeading title="Search synonyms">
        Words in one group find each other: searching for one also finds policies that use another.
      </PageHeading>
      <SectionCard
        id="synonyms-add-heading"
        title="Add a group"
        description="Type each word or phrase and press Enter (or a comma). A word can be in one group only."
      >
        <GroupForm submitLabel="Add group" />
      </SectionCard>
      <SectionCard id="synonyms-heading" title="Groups">
        <FailureAlert message={failure} onClose={() => setFailure(null)} />
        <QueryBody
          query={groups}
          loadingLabel="Loading the synonyms"
          fallback="The synonyms could not be loaded. Please try again."
        >
          {(list) =>
            list.length === 0 ? (
              <Stack gap="sm" data-testid="synonyms-empty">
                <Text>No synonym groups yet. Search finds only the words typed.</Text>
                <Text size="sm" c="dimmed">
                  Suggested for a hospital policy manual:
                </Text>
                <List size="sm">
                  {SUGGESTED_SYNONYM_GROUPS.map((terms) => (
                    <List.Item key={terms.join()}>{terms.join(', ')}</List.Item>
                  ))}
                </List>
                <Group>
                  <Button onClick={() => void addSuggested()} loading={suggest.isPending}>
                    Add the suggested synonyms
                  </Button>
                </Group>
              </Stack>
            ) : (
              <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Synonym groups">
                {list.map((group) => (
                  <Group
                    component="li"
                    key={group.id}
                    data-group-id={group.id}
                    justify="space-between"
                    wrap="wrap"
                    gap="sm"
                    py="sm"
                    style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  >
                    <Group gap={6} wrap="wrap" style={{ flex: '1 1 16rem', minWidth: 0 }}>
                      {group.terms.map((term) => (
                        <Badge key={term} variant="light" tt="none" size="lg" style={{ maxWidth: '100%' }}>
                          {term}
                        </Badge>
                      ))}
                    </Group>
                    <Group gap="xs">
                      <Button
                        variant="default"
                        size="xs"
                        onClick={() => setEditing(group)}
                        aria-label={`Edit ${describe(group.terms)}`}
                      >
                        Edit
                      </Button>
                      <Button
                        variant="subtle"
                        color="red.8"
                        size="xs"
                        loading={remove.isPending && remove.variables === group.id}
                        onClick={() => {
                          setFailure(null);
                          setDeleting(group);
                        }}
                        aria-label={`Delete ${describe(group.terms)}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Group>
                ))}
              </Stack>
            )
          }
        </QueryBody>
      </SectionCard>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title="Edit synonyms"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {editing && (
          <GroupForm
            key={editing.id}
            group={editing}
            submitLabel="Save group"
            onDone={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
      <ConfirmActionModal
        opened={deleting !== null}
        title="Delete this synonym group?"
        message={
          deleting
            ? `Search will no longer treat ${describe(deleting.terms)} as the same. The policies are not changed.`
            : ''
        }
        confirmLabel="Delete group"
        danger
        onConfirm={() => deleting && void removeNow(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

interface GroupFormProps {
  /** The group being changed; a new group without one. */
  group?: SynonymGroup;
  submitLabel: string;
  onDone?: () => void;
  onCancel?: () => void;
}

function GroupForm({ group, submitLabel, onDone, onCancel }: GroupFormProps) {
  const projectId = usePolicyProjectId();
  const create = useCreateSynonymGroup(projectId);
  const update = useUpdateSynonymGroup(projectId);
  const [terms, setTerms] = useState<string[]>(group?.terms ?? []);
  const [error, setError] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = synonymGroupInputSchema.safeParse({ terms });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the words.');
    setError(null);
    try {
      if (group) await update.mutateAsync({ id: group.id, ...parsed.data });
      else await create.mutateAsync(parsed.data);
      toast.success(group ? 'Synonym group saved.' : 'Synonym group added.');
      if (!group) setTerms([]);
      onDone?.();
    } catch (failure) {
      setError(messageFor(failure, 'The group could not be saved. Please try again.'));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <TagsInput
          label="Words or phrases"
          placeholder={terms.length ? undefined : 'e.g. fall, falls'}
          value={terms}
          onChange={(next) => {
            setTerms(next.map((term) => term.trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean));
            setError(null);
          }}
          splitChars={[',']}
          maxTags={SYNONYM_GROUP_MAX}
          clearable
          error={error ? true : undefined}
          data-autofocus={group ? true : undefined}
        />
        <ErrorNotice message={error} />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
