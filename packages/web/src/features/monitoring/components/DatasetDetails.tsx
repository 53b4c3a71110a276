import { Alert, Anchor, Badge, Button, Group, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { DATASET_NAME_MAX, datasetUpdateSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { FailureAlert } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { type Dataset, datasetRowsUrl, useDeleteDataset, useUpdateDataset } from '../api/data-datasets';
import { DatasetPatientLevel } from './DatasetPatientLevel';
import { COLUMN_TYPE_LABELS, DataCard, dateSpan, formatCount } from './import-parts';

/** The selected dataset: what it holds, its name and description, patient-level, delete and the rows download. */
export function DatasetDetails({
  projectId,
  dataset,
  onDeleted,
}: {
  projectId: string;
  dataset: Dataset;
  onDeleted: () => void;
}) {
  const remove = useDeleteDataset(projectId);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function deleteNow() {
    setConfirming(false);
    setFailure(null);
    try {
      await remove.mutateAsync(dataset.id);
      toast.success(`Dataset "${dataset.name}" deleted.`);
      onDeleted();
    } catch (error) {
      setFailure(messageFor(error, 'The dataset could not be deleted. Please try again.'));
    }
  }

  return (
    <DataCard
      id="dataset-heading"
      title={dataset.name}
      actions={
        <Group gap="sm" wrap="wrap">
          <Anchor href={datasetRowsUrl(projectId, dataset.id)} download>
            Download rows (CSV)
          </Anchor>
          {dataset.abilities.manage && (
            <Button
              variant="outline"
              color="red.9"
              loading={remove.isPending}
              onClick={() => {
                setFailure(null);
                setConfirming(true);
              }}
            >
              Delete dataset
            </Button>
          )}
        </Group>
      }
    >
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      <Text size="sm" data-testid="dataset-summary">
        {formatCount(dataset.row_count, 'row', 'rows')} · {dateSpan(dataset.first_date, dataset.last_date)} · version{' '}
        {dataset.version} · {formatCount(dataset.measure_count, 'measure uses it', 'measures use it')}
      </Text>
      {dataset.columns.length > 0 && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span fw={600} size="sm">
            Columns:{' '}
          </Text>
          {dataset.columns
            .map((column) => `${column.label} (${column.key}, ${COLUMN_TYPE_LABELS[column.type].toLowerCase()})`)
            .join(', ')}
        </Text>
      )}
      {dataset.abilities.manage ? (
        <>
          <DatasetForm key={`${dataset.id}:${dataset.updated_at}`} projectId={projectId} dataset={dataset} />
          <DatasetPatientLevel projectId={projectId} dataset={dataset} />
        </>
      ) : (
        <Stack gap="xs">
          {dataset.description && <Text style={{ whiteSpace: 'pre-wrap' }}>{dataset.description}</Text>}
          <Group gap="xs">
            {dataset.patient_level ? (
              <Badge variant="light" color="grape.9">
                Patient-level
              </Badge>
            ) : (
              <Badge variant="light" color="gray.8">
                Aggregate data
              </Badge>
            )}
            {dataset.patient_level && dataset.retention_months !== null && (
              <Text size="sm">Rows are kept {formatCount(dataset.retention_months, 'month', 'months')}.</Text>
            )}
          </Group>
        </Stack>
      )}
      {dataset.measure_count > 0 && dataset.abilities.manage && (
        <Alert color="blue" variant="light">
          {formatCount(dataset.measure_count, 'measure reads', 'measures read')} this dataset: it cannot be deleted
          while they do.
        </Alert>
      )}
      <ConfirmActionModal
        opened={confirming}
        title={`Delete dataset "${dataset.name}"?`}
        message={`Its ${formatCount(dataset.row_count, 'row', 'rows')} and its import history are deleted. This cannot be undone.`}
        confirmLabel="Delete dataset"
        danger
        onConfirm={() => void deleteNow()}
        onCancel={() => setConfirming(false)}
      />
    </DataCard>
  );
}

const FIELDS = ['name', 'description', 'retention_months'] as const;
type Field = (typeof FIELDS)[number];

/** Name, description and (patient-level datasets) how long rows are kept: monitoring admins only. */
function DatasetForm({ projectId, dataset }: { projectId: string; dataset: Dataset }) {
  const update = useUpdateDataset(projectId, dataset.id);
  const [name, setName] = useState(dataset.name);
  const [description, setDescription] = useState(dataset.description);
  const [retention, setRetention] = useState<number | string>(dataset.retention_months ?? '');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    const body = {
      name,
      description,
      ...(dataset.patient_level ? { retention_months: retention === '' ? null : Number(retention) } : {}),
    };
    const parsed = datasetUpdateSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    if (dataset.patient_level && parsed.data.retention_months === null) {
      setErrors({ retention_months: 'Enter how many months the rows are kept.' });
      return;
    }
    setErrors({});
    try {
      const saved = await update.mutateAsync(parsed.data);
      toast.success(`Dataset "${saved.name}" saved.`);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The dataset could not be saved. Please try again.'));
      }
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Dataset details">
      <Stack gap="sm">
        <FailureAlert message={failure} onClose={() => setFailure(null)} />
        <TextInput
          label="Name"
          required
          maxLength={DATASET_NAME_MAX + 20}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={errors.name}
        />
        <Textarea
          label="Description"
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          error={errors.description}
        />
        {dataset.patient_level && (
          <NumberInput
            label="Keep rows for (months)"
            required
            min={1}
            max={600}
            allowDecimal={false}
            allowNegative={false}
            maw={240}
            value={retention}
            onChange={setRetention}
            error={errors.retention_months}
          />
        )}
        <Group>
          <Button type="submit" variant="default" loading={update.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
