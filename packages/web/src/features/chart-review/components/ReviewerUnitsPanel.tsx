import { Button, Fieldset, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type CrReviewerUnits, useReviewerUnits, useSaveReviewerUnits } from '../api/sampling';
import { CR_ROLE_LABELS, QueryPanel } from './cr-parts';
import { useChartReviewProjectId } from './use-chart-review-project';

/**
 * The units each reviewer works on (the conflict-of-interest rule: with it on, nobody reviews a case of their own
 * unit). On the settings screen, below the settings form; editable with the settings section only.
 */
export function ReviewerUnitsPanel() {
  const projectId = useChartReviewProjectId();
  const units = useReviewerUnits(projectId);
  return (
    <Fieldset
      legend="Reviewers' units"
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      styles={{ legend: { fontWeight: 700 } }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The units each reviewer works on. While the conflict-of-interest rule is on, a reviewer is never assigned a
          case of one of these units.
        </Text>
        <QueryPanel
          query={units}
          fallback="The reviewers' units could not be loaded. Please try again."
          loadingLabel="Loading the reviewers' units"
        >
          {(data) =>
            data.reviewers.length === 0 ? (
              <Text c="dimmed">Nobody in this project may review charts yet.</Text>
            ) : (
              <UnitsTable projectId={projectId} data={data} />
            )
          }
        </QueryPanel>
      </Stack>
    </Fieldset>
  );
}

const asMap = (data: CrReviewerUnits) => Object.fromEntries(data.reviewers.map((r) => [r.user_id, r.units]));

function UnitsTable({ projectId, data }: { projectId: string; data: CrReviewerUnits }) {
  const save = useSaveReviewerUnits(projectId);
  const [saved, setSaved] = useState(() => asMap(data));
  const [values, setValues] = useState(saved);
  const [failure, setFailure] = useState<string | null>(null);
  const edit = data.abilities.edit;
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const choices = [...new Set([...data.units, ...Object.values(values).flat()])];

  async function submit() {
    setFailure(null);
    try {
      const answer = await save.mutateAsync({
        reviewers: data.reviewers.map((r) => ({ user_id: r.user_id, units: values[r.user_id] ?? [] })),
      });
      const next = asMap(answer);
      setSaved(next);
      setValues(next);
      toast.success("Reviewers' units saved.");
    } catch (error) {
      setFailure(messageFor(error, "The reviewers' units could not be saved. Please try again."));
    }
  }

  return (
    <Stack gap="md">
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label="Reviewers' units" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Reviewer</Table.Th>
              <Table.Th scope="col">Units they work on</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.reviewers.map((reviewer) => (
              <Table.Tr key={reviewer.user_id}>
                <Table.Th scope="row">
                  {reviewer.name}
                  <Text size="xs" c="dimmed">
                    {CR_ROLE_LABELS[reviewer.role] ?? reviewer.role}
                  </Text>
                </Table.Th>
                <Table.Td>
                  {edit ? (
                    <MultiSelect
                      aria-label={`Units of ${reviewer.name}`}
                      data={choices}
                      value={values[reviewer.user_id] ?? []}
                      onChange={(units) => setValues((current) => ({ ...current, [reviewer.user_id]: units }))}
                      searchable
                      placeholder="No unit"
                    />
                  ) : (values[reviewer.user_id] ?? []).length ? (
                    (values[reviewer.user_id] ?? []).join(', ')
                  ) : (
                    <Text c="dimmed">No unit</Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ErrorNotice message={failure} />
      {edit && (
        <Group>
          <Button onClick={() => void submit()} disabled={!dirty} loading={save.isPending}>
            Save reviewers' units
          </Button>
        </Group>
      )}
    </Stack>
  );
}
