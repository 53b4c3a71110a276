import { Button, List, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { FailureAlert } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { type Dataset, useUpdateDataset } from '../api/data-datasets';
import { formatCount } from './import-parts';

const DEFAULT_RETENTION = 24;

/**
 * The patient-level switch (monitoring admins). Turning it on lets imports hold columns that identify patients,
 * so it is confirmed in a dialog that says so and asks how long the rows are kept.
 */
export function DatasetPatientLevel({ projectId, dataset }: { projectId: string; dataset: Dataset }) {
  const [asking, setAsking] = useState(false);
  return (
    <Stack gap={4}>
      <Switch
        label="Patient-level dataset"
        description={
          dataset.patient_level
            ? `May hold columns that identify patients. Rows are kept ${formatCount(dataset.retention_months ?? 0, 'month', 'months')}.`
            : 'Aggregate data only: columns that look like patient identifiers are refused.'
        }
        checked={dataset.patient_level}
        onChange={() => setAsking(true)}
      />
      {asking && <PatientLevelDialog projectId={projectId} dataset={dataset} onClose={() => setAsking(false)} />}
    </Stack>
  );
}

function PatientLevelDialog({
  projectId,
  dataset,
  onClose,
}: {
  projectId: string;
  dataset: Dataset;
  onClose: () => void;
}) {
  const update = useUpdateDataset(projectId, dataset.id);
  const turningOn = !dataset.patient_level;
  const [months, setMonths] = useState<number | string>(dataset.retention_months ?? DEFAULT_RETENTION);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function confirm() {
    setFailure(null);
    const value = Number(months);
    if (turningOn && (months === '' || !Number.isInteger(value) || value < 1 || value > 600)) {
      setError('Enter a whole number of months from 1 to 600.');
      return;
    }
    setError(null);
    try {
      await update.mutateAsync(
        turningOn ? { patient_level: true, retention_months: value } : { patient_level: false, retention_months: null },
      );
      toast.success(
        turningOn ? `"${dataset.name}" is now patient-level.` : `"${dataset.name}" now holds aggregate data only.`,
      );
      onClose();
    } catch (caught) {
      const fields = serverFieldErrors(caught, ['retention_months', 'patient_level'] as const);
      setError(fields.retention_months ?? null);
      if (!fields.retention_months) {
        setFailure(fields.patient_level ?? messageFor(caught, 'The dataset could not be saved. Please try again.'));
      }
    }
  }

  return (
    <DialogModal
      opened
      onClose={onClose}
      title={turningOn ? 'Make this dataset patient-level?' : 'Make this dataset aggregate only?'}
    >
      <Stack gap="md">
        <FailureAlert message={failure} onClose={() => setFailure(null)} />
        {turningOn ? (
          <>
            <Text>
              A patient-level dataset may hold one row per patient or event, with columns that identify patients:
            </Text>
            <List size="sm" spacing={2}>
              <List.Item>
                names, medical record numbers, dates of birth, addresses, phone numbers and email addresses;
              </List.Item>
              <List.Item>admission and discharge dates.</List.Item>
            </List>
            <Text>
              Only monitoring admins can allow this. Import only the columns your measures need, and say how long the
              rows are kept.
            </Text>
            <NumberInput
              label="Keep rows for (months)"
              required
              min={1}
              max={600}
              allowDecimal={false}
              allowNegative={false}
              maw={240}
              value={months}
              onChange={setMonths}
              error={error}
              data-autofocus
            />
          </>
        ) : (
          <Text>
            Imports into "{dataset.name}" will again refuse columns that look like patient identifiers. Rows already
            imported stay until they are rolled back or deleted.
          </Text>
        )}
        <DialogActions onCancel={onClose}>
          <Button color={turningOn ? 'red.8' : undefined} loading={update.isPending} onClick={() => void confirm()}>
            {turningOn ? 'Make patient-level' : 'Make aggregate only'}
          </Button>
        </DialogActions>
      </Stack>
    </DialogModal>
  );
}
