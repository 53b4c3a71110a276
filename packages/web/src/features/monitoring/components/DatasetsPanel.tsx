import { Anchor, Badge, Button, Group, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { DATASET_NAME_MAX, datasetCreateSchema } from '@portal/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { FailureAlert, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { type Dataset, type DatasetList, useCreateDataset } from '../api/data-datasets';
import { DataCard, dateSpan, NO_DATASETS } from './import-parts';

interface DatasetsPanelProps {
  projectId: string;
  datasets: UseQueryResult<DatasetList>;
  selectedId: number | null;
  /** The link that selects a dataset (the selection lives in the URL). */
  hrefFor: (datasetId: number) => string;
  onCreated: (dataset: Dataset) => void;
}

/** The project's datasets: the table to pick one from, and "New dataset". */
export function DatasetsPanel({ projectId, datasets, selectedId, hrefFor, onCreated }: DatasetsPanelProps) {
  const [creating, setCreating] = useState(false);

  return (
    <DataCard
      id="datasets-heading"
      title="Datasets"
      actions={
        <Button variant="filled" onClick={() => setCreating(true)}>
          New dataset
        </Button>
      }
    >
      <QueryBody
        query={datasets}
        fallback="The datasets could not be loaded. Please try again."
        loadingLabel="Loading the datasets"
        rows={3}
      >
        {(data) =>
          data.datasets.length === 0 ? (
            <Text>{NO_DATASETS}</Text>
          ) : (
            <ScrollTable
              minWidth={640}
              verticalSpacing="xs"
              highlightOnHover
              aria-labelledby="datasets-heading"
              columns={['Name', 'Rows', 'Dates', 'Version', 'Measures using it']}
            >
              {data.datasets.map((dataset) => {
                const selected = dataset.id === selectedId;
                return (
                  <Table.Tr
                    key={dataset.id}
                    data-dataset-id={dataset.id}
                    bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                  >
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Anchor
                          component={Link}
                          to={hrefFor(dataset.id)}
                          fw={selected ? 700 : 500}
                          c={selected ? 'blue.9' : undefined}
                          aria-current={selected ? 'true' : undefined}
                          style={{ overflowWrap: 'anywhere' }}
                        >
                          {dataset.name}
                        </Anchor>
                        {dataset.patient_level && (
                          <Badge variant="light" color="grape.9" style={{ flexShrink: 0 }}>
                            Patient-level
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{dataset.row_count.toLocaleString('en-US')}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {dateSpan(dataset.first_date, dataset.last_date)}
                    </Table.Td>
                    <Table.Td>{dataset.version}</Table.Td>
                    <Table.Td>{dataset.measure_count}</Table.Td>
                  </Table.Tr>
                );
              })}
            </ScrollTable>
          )
        }
      </QueryBody>
      {creating && (
        <NewDatasetModal
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(dataset) => {
            setCreating(false);
            onCreated(dataset);
          }}
        />
      )}
    </DataCard>
  );
}

const FIELDS = ['name', 'description'] as const;
type Field = (typeof FIELDS)[number];

function NewDatasetModal({
  projectId,
  onClose,
  onCreated,
}: {
  projectId: string;
  onClose: () => void;
  onCreated: (dataset: Dataset) => void;
}) {
  const create = useCreateDataset(projectId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    setFailure(null);
    const parsed = datasetCreateSchema.safeParse({ name, description });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const dataset = await create.mutateAsync(parsed.data);
      toast.success(`Dataset "${dataset.name}" created.`);
      onCreated(dataset);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The dataset could not be created. Please try again.'));
      }
    }
  }

  return (
    <DialogModal opened onClose={onClose} title="New dataset" size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <FailureAlert message={failure} onClose={() => setFailure(null)} />
          <TextInput
            label="Name"
            required
            data-autofocus
            maxLength={DATASET_NAME_MAX + 20}
            description="For example: Falls by unit and month."
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
          />
          <Textarea
            label="Description"
            rows={3}
            description="Where the data comes from and what one row is (optional)."
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
          />
          <DialogActions onCancel={onClose}>
            <Button type="submit" loading={create.isPending}>
              Create dataset
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </DialogModal>
  );
}
