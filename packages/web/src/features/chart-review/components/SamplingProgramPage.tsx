import { Anchor, Button, FileInput, Group, Paper, Progress, Select, Stack, Table, Text, Title } from '@mantine/core';
import { CR_UPLOAD_LIMITS, type CrGrain } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { ErrorNotice, LoadFailure, PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useProgram } from '../api/programs';
import { type CrSampleList, useProgramSamples, useUploadSampleList } from '../api/sampling';
import { EmptyState, idParam, Loading, ProjectPrivilegeBanner } from './cr-parts';
import { periodChoices, periodLabel, SampleStatusBadge } from './SamplingParts';
import { SamplingSample } from './SamplingSample';
import { describeSamplingPlan } from './sampling-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/**
 * /app/chart-review/{projectId}/sampling/{programId}: the programme's samples by period, the upload of a period's
 * eligible-case list, and the chosen sample (?sample=id, else the newest).
 */
export function SamplingProgramPage() {
  const projectId = useChartReviewProjectId();
  const programId = idParam(useParams().programId);
  const program = useProgram(projectId, programId);
  const samples = useProgramSamples(projectId, programId ?? 0);
  const [search, setSearch] = useSearchParams();
  usePageTitle(program.data ? `Sampling · ${program.data.name}` : 'Sampling');

  if (programId === null)
    return <EmptyState title="This programme does not exist.">Pick one under Sampling.</EmptyState>;
  if (program.isPending || samples.isPending) return <Loading label="Loading the programme's samples" />;
  if (program.isError || samples.isError)
    return (
      <LoadFailure
        error={program.error ?? samples.error}
        fallback="The samples could not be loaded. Please try again."
        retrying={program.isFetching || samples.isFetching}
        onRetry={() => {
          void program.refetch();
          void samples.refetch();
        }}
      />
    );

  const list = samples.data.samples;
  const chosen = idParam(search.get('sample')) ?? list[0]?.id ?? null;
  const choose = (id: number) => setSearch({ sample: String(id) }, { replace: true });

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title={`Sampling · ${program.data.name}`}>
          {describeSamplingPlan(program.data.sampling, program.data.grain)}
          {program.data.units.length ? ` · ${program.data.units.join(', ')}` : ''}
        </PageHeading>
        <Anchor component={Link} to={chartReviewRoute(projectId, 'sampling')}>
          All programmes
        </Anchor>
      </Group>
      <ProjectPrivilegeBanner projectId={projectId} />
      <PeriodsTable list={samples.data} grain={program.data.grain} chosen={chosen} onChoose={choose} />
      {samples.data.abilities.upload && (
        <UploadForm
          projectId={projectId}
          programId={programId}
          grain={program.data.grain}
          list={samples.data}
          onUploaded={choose}
        />
      )}
      {chosen !== null && (
        <SamplingSample projectId={projectId} sampleId={chosen} programPlan={program.data.sampling} />
      )}
    </Stack>
  );
}

function PeriodsTable({
  list,
  grain,
  chosen,
  onChoose,
}: {
  list: CrSampleList;
  grain: CrGrain;
  chosen: number | null;
  onChoose: (id: number) => void;
}) {
  if (list.samples.length === 0)
    return (
      <EmptyState title="No eligible-case list yet.">
        Export the period's eligible cases from the EHR as CSV (an encounter reference column, and unit and discharge
        date if you have them; never names or birth dates) and upload it below.
      </EmptyState>
    );
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" striped aria-label="Samples by period">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Eligible</Table.Th>
              <Table.Th scope="col">Selected</Table.Th>
              <Table.Th scope="col">Excluded</Table.Th>
              <Table.Th scope="col">Assigned</Table.Th>
              <Table.Th scope="col">Submitted</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.samples.map((sample) => (
              <Table.Tr key={sample.id} aria-current={sample.id === chosen ? 'true' : undefined}>
                <Table.Td>
                  <Button
                    variant={sample.id === chosen ? 'light' : 'subtle'}
                    size="compact-sm"
                    onClick={() => onChoose(sample.id)}
                    aria-label={`Open ${periodLabel(sample.period_start, grain)}`}
                  >
                    {periodLabel(sample.period_start, grain)}
                  </Button>
                </Table.Td>
                <Table.Td>
                  <SampleStatusBadge status={sample.status} />
                </Table.Td>
                <Table.Td>{sample.counts.eligible}</Table.Td>
                <Table.Td>{sample.counts.selected}</Table.Td>
                <Table.Td>{sample.counts.excluded}</Table.Td>
                <Table.Td>{sample.counts.assigned}</Table.Td>
                <Table.Td>{sample.counts.submitted}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

type UploadField = 'period_start' | 'file';
const UPLOAD_FIELDS: UploadField[] = ['period_start', 'file'];
const MAX_MB = CR_UPLOAD_LIMITS.bytes / 1024 / 1024;

/** A file the browser can already tell is wrong: not CSV, empty or too large. */
export function fileProblem(file: File | null): string | null {
  if (!file) return 'Choose the eligible-case list (a CSV file).';
  if (!/\.(csv|txt)$/i.test(file.name)) return 'Choose a CSV file (.csv).';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > CR_UPLOAD_LIMITS.bytes) return `The file is larger than ${MAX_MB} MB.`;
  return null;
}

function UploadForm({
  projectId,
  programId,
  grain,
  list,
  onUploaded,
}: {
  projectId: string;
  programId: number;
  grain: CrGrain;
  list: CrSampleList;
  onUploaded: (sampleId: number) => void;
}) {
  const upload = useUploadSampleList(projectId, programId);
  const choices = periodChoices(grain);
  // The newest period whose list can still be uploaded (a locked one can no longer be replaced).
  const open = choices.find((c) => list.samples.find((x) => x.period_start === c.value)?.status !== 'locked');
  const [period, setPeriod] = useState<string | null>(open?.value ?? choices[0]?.value ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<FieldErrors<UploadField>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const existing = list.samples.find((sample) => sample.period_start === period);

  function check(): boolean {
    const found: FieldErrors<UploadField> = {};
    if (!period) found.period_start = 'Choose the period of the list.';
    const problem = fileProblem(file);
    if (problem) found.file = problem;
    setErrors(found);
    return Object.keys(found).length === 0;
  }

  async function send() {
    setConfirming(false);
    setFailure(null);
    setProgress(0);
    try {
      const sample = await upload.mutateAsync({ periodStart: period!, file: file!, onProgress: setProgress });
      toast.success(`${sample.row_count.toLocaleString('en-US')} eligible cases uploaded. Draw the sample next.`);
      setFile(null);
      onUploaded(sample.id);
    } catch (error) {
      const fields = serverFieldErrors(error, UPLOAD_FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(messageFor(error, 'The list could not be uploaded.'));
    } finally {
      setProgress(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!check()) return;
    if (existing?.status === 'locked') {
      setErrors({ period_start: 'The sample of this period is locked: its list can no longer be replaced.' });
      return;
    }
    if (existing) setConfirming(true);
    else void send();
  }

  let note: ReactNode = null;
  if (existing?.status === 'locked') note = 'This period is locked: its list can no longer be replaced.';
  else if (existing) note = 'This period already has a list: uploading replaces it and any draw.';

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate aria-label="Upload an eligible-case list">
        <Stack gap="md">
          <Title order={2} size="h4">
            Upload an eligible-case list
          </Title>
          <Group align="flex-start" gap="md" wrap="wrap">
            <Select
              label="Period"
              data={choices}
              value={period}
              onChange={(value) => {
                setPeriod(value);
                setErrors((current) => ({ ...current, period_start: undefined }));
              }}
              allowDeselect={false}
              error={errors.period_start}
              description={note}
              w={{ base: '100%', sm: 260 }}
              required
            />
            <FileInput
              label="Eligible-case list (CSV)"
              description={`One row per case: encounter reference; unit and discharge date optional. At most ${MAX_MB} MB.`}
              placeholder="Choose a file"
              accept=".csv,text/csv"
              value={file}
              onChange={(value) => {
                setFile(value);
                setErrors((current) => ({ ...current, file: undefined }));
              }}
              error={errors.file}
              clearable
              required
              w={{ base: '100%', sm: 420 }}
            />
          </Group>
          {progress !== null && (
            <Progress value={Math.round(progress * 100)} aria-label="Upload progress" animated size="lg" />
          )}
          <ErrorNotice message={failure} />
          <Group>
            <Button type="submit" loading={upload.isPending}>
              Upload list
            </Button>
          </Group>
        </Stack>
      </form>
      <DialogModal opened={confirming} onClose={() => setConfirming(false)} title="Replace this period's list?">
        <Stack gap="md">
          <Text>
            {period ? periodLabel(period, grain) : 'This period'} already has a list. Uploading replaces its cases and
            any draw and exclusions made from it.
          </Text>
          <DialogActions onCancel={() => setConfirming(false)} gap="md">
            <Button color="red" onClick={() => void send()}>
              Replace the list
            </Button>
          </DialogActions>
        </Stack>
      </DialogModal>
    </Paper>
  );
}
