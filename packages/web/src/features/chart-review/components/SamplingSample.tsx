import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type CrLockMode, crReasonSchema, type SamplingPlan, samplingPlanSchema } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDate, formatDay, formatMonth } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { useCrPeople } from '../api/people';
import {
  type CrSample,
  type CrSampleCase,
  pullListUrl,
  rankedListUrl,
  useDrawSample,
  useExcludeCase,
  useLockSample,
  useSample,
} from '../api/sampling';
import { QueryPanel } from './cr-parts';
import { ASSIGNMENT_STATUS_LABELS, CASE_STATUS_LABELS, periodLabel, SampleStatusBadge } from './SamplingParts';
import { describeSamplingPlan, SAMPLING_METHOD_LABELS } from './sampling-words';

/** One sample: provenance, the plan and the draw, the units, the cases, exclusions, downloads, lock and assign. */
export function SamplingSample({
  projectId,
  sampleId,
  programPlan,
}: {
  projectId: string;
  sampleId: number;
  programPlan: SamplingPlan;
}) {
  const sample = useSample(projectId, sampleId);
  return (
    <QueryPanel
      query={sample}
      fallback="The sample could not be loaded. Please try again."
      loadingLabel="Loading the sample"
    >
      {(data) => <SampleView projectId={projectId} sample={data} programPlan={programPlan} />}
    </QueryPanel>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function SampleView({
  projectId,
  sample,
  programPlan,
}: {
  projectId: string;
  sample: CrSample;
  programPlan: SamplingPlan;
}) {
  const [excluding, setExcluding] = useState<CrSampleCase | null>(null);
  const [pulling, setPulling] = useState(false);
  const [locking, setLocking] = useState(false);
  const period = periodLabel(sample.period_start, sample.program.grain);
  const locked = sample.status === 'locked';
  return (
    <Stack gap="lg" aria-label={`Sample of ${period}`} component="section">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {period} <SampleStatusBadge status={sample.status} />
        </Title>
        <Group gap="sm" wrap="wrap">
          {sample.status !== 'uploaded' && (
            <Button component="a" href={rankedListUrl(projectId, sample.id)} variant="default" download>
              Download ranked list
            </Button>
          )}
          {sample.abilities.pull_list && (
            <Button variant="default" onClick={() => setPulling(true)}>
              Download pull list
            </Button>
          )}
          {sample.abilities.lock && <Button onClick={() => setLocking(true)}>Lock and assign</Button>}
        </Group>
      </Group>
      {sample.status !== 'uploaded' && sample.refs_stored && !sample.abilities.pull_list && (
        <Text size="sm" c="dimmed">
          The pull list holds encounter references: only the roles the chart review settings allow to read them may
          download it.
        </Text>
      )}

      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Title order={3} size="h5" mb="sm">
          Provenance
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          <Fact label="File">{sample.file_name}</Fact>
          <Fact label="Eligible cases">{sample.row_count.toLocaleString('en-US')}</Fact>
          <Fact label="Uploaded">
            {formatDate(sample.uploaded_at)}
            {sample.uploaded_by ? ` by ${sample.uploaded_by.name}` : ''}
          </Fact>
          <Fact label="File SHA-256">
            <Code>{sample.file_sha256}</Code>
          </Fact>
          <Fact label="Seed">{sample.seed ? <Code>{sample.seed}</Code> : 'Not drawn yet'}</Fact>
          <Fact label="Algorithm">{sample.algorithm ?? 'Not drawn yet'}</Fact>
          <Fact label="Plan">
            {sample.plan ? describeSamplingPlan(sample.plan, sample.program.grain) : 'Not drawn yet'}
          </Fact>
          <Fact label="Drawn">
            {sample.drawn_at
              ? `${formatDate(sample.drawn_at)}${sample.drawn_by ? ` by ${sample.drawn_by.name}` : ''}`
              : '—'}
          </Fact>
          <Fact label="Locked">
            {sample.locked_at
              ? `${formatDate(sample.locked_at)}${sample.locked_by ? ` by ${sample.locked_by.name}` : ''}${sample.tool_version ? ` · tool version ${sample.tool_version.version}` : ''}`
              : '—'}
          </Fact>
        </SimpleGrid>
      </Paper>

      {sample.abilities.draw && <DrawPanel projectId={projectId} sample={sample} programPlan={programPlan} />}

      {sample.by_stratum.length > 0 && (
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Table.ScrollContainer minWidth={360}>
            <Table aria-label="Sample by unit" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Unit</Table.Th>
                  <Table.Th scope="col">Eligible</Table.Th>
                  <Table.Th scope="col">Sample size</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sample.by_stratum.map((row) => (
                  <Table.Tr key={row.stratum}>
                    <Table.Td>{row.stratum}</Table.Td>
                    <Table.Td>{row.population}</Table.Td>
                    <Table.Td>{row.size}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}

      {sample.cases.length > 0 && (
        <CasesTable sample={sample} onExclude={sample.abilities.exclude ? setExcluding : null} locked={locked} />
      )}

      <ExcludeModal projectId={projectId} target={excluding} onClose={() => setExcluding(null)} />
      <PullListModal projectId={projectId} sample={sample} opened={pulling} onClose={() => setPulling(false)} />
      {locking && (
        <LockModal
          projectId={projectId}
          sample={sample}
          onClose={() => setLocking(false)}
          onPullList={() => setPulling(true)}
        />
      )}
    </Stack>
  );
}

function CasesTable({
  sample,
  onExclude,
  locked,
}: {
  sample: CrSample;
  onExclude: ((c: CrSampleCase) => void) | null;
  locked: boolean;
}) {
  const submitted = (c: CrSampleCase) => c.assignments.some((a) => a.status === 'submitted');
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={900}>
        <Table aria-label="Cases of the sample" verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Case</Table.Th>
              <Table.Th scope="col">Unit</Table.Th>
              <Table.Th scope="col">Discharge month</Table.Th>
              <Table.Th scope="col">Rank</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              {locked && <Table.Th scope="col">Reviews</Table.Th>}
              {onExclude && (
                <Table.Th scope="col">
                  <span className="sr-only">Actions</span>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sample.cases.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Th scope="row">{c.case_code}</Table.Th>
                <Table.Td>{c.unit ?? '—'}</Table.Td>
                <Table.Td>{c.discharge_month ? formatMonth(`${c.discharge_month.slice(0, 7)}-01`) : '—'}</Table.Td>
                <Table.Td>
                  {c.rank ?? '—'}
                  {c.stratum && sample.by_stratum.length > 1 ? ` in ${c.stratum}` : ''}
                </Table.Td>
                <Table.Td>
                  {CASE_STATUS_LABELS[c.status]}
                  {c.status === 'excluded' && (
                    <Text size="sm" c="dimmed">
                      {c.exclusion_reason}
                      {c.replacement_case_code ? ` · replaced by ${c.replacement_case_code}` : ' · not replaced'}
                    </Text>
                  )}
                </Table.Td>
                {locked && (
                  <Table.Td>
                    {c.assignments.length === 0
                      ? '—'
                      : c.assignments.map((a) => (
                          <Text key={a.id} size="sm">
                            {a.reviewer.name} ({a.role === 'second' ? 'second, blind' : 'primary'}):{' '}
                            {ASSIGNMENT_STATUS_LABELS[a.status] ?? a.status}, due {formatDay(a.due_at)}
                          </Text>
                        ))}
                  </Table.Td>
                )}
                {onExclude && (
                  <Table.Td>
                    {c.status === 'selected' && !submitted(c) && (
                      <RowAction color="red.9" onClick={() => onExclude(c)} aria-label={`Exclude ${c.case_code}`}>
                        Exclude
                      </RowAction>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

const METHODS = (Object.keys(SAMPLING_METHOD_LABELS) as SamplingPlan['method'][]).map((value) => ({
  value,
  label: SAMPLING_METHOD_LABELS[value],
}));

/** Draw (or draw again, after asking) with the programme's plan, or a plan and seed given here. */
function DrawPanel({
  projectId,
  sample,
  programPlan,
}: {
  projectId: string;
  sample: CrSample;
  programPlan: SamplingPlan;
}) {
  const draw = useDrawSample(projectId, sample.id);
  const [override, setOverride] = useState(false);
  const [seed, setSeed] = useState('');
  const [method, setMethod] = useState<SamplingPlan['method']>('jc_table');
  const [amount, setAmount] = useState<number | string>('');
  const [byUnit, setByUnit] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const drawn = sample.status === 'drawn';

  function planInput(): { plan?: SamplingPlan; seed?: string } | null {
    if (!override) return {};
    const raw =
      method === 'fixed'
        ? { method, n: Number(amount), stratify_by_unit: byUnit }
        : method === 'percent'
          ? { method, pct: Number(amount), stratify_by_unit: byUnit }
          : { method, stratify_by_unit: byUnit };
    const parsed = samplingPlanSchema.safeParse(raw);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the plan.');
      return null;
    }
    return { plan: parsed.data, ...(seed.trim() ? { seed: seed.trim() } : {}) };
  }

  async function run() {
    setAsking(false);
    setError(null);
    const body = planInput();
    if (!body) return;
    try {
      const result = await draw.mutateAsync(body);
      toast.success(`Sample drawn: ${result.size ?? 0} of ${result.row_count} cases selected.`);
    } catch (failure) {
      setError(messageFor(failure, 'The sample could not be drawn. Please try again.'));
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (drawn) setAsking(true);
    else void run();
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate aria-label="Draw the sample">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {drawn ? 'Draw again' : 'Draw the sample'}
          </Title>
          <Text size="sm">
            The programme's plan: {describeSamplingPlan(programPlan, sample.program.grain)}. Every eligible case is
            ranked with a random seed, which is kept, so anyone with the list and the seed can check the draw.
          </Text>
          <Checkbox
            label="Use another plan or seed for this draw"
            checked={override}
            onChange={(event) => setOverride(event.currentTarget.checked)}
          />
          {override && (
            <Group align="flex-end" gap="md" wrap="wrap">
              <Select
                label="Method"
                data={METHODS}
                value={method}
                onChange={(value) => value && setMethod(value as SamplingPlan['method'])}
                allowDeselect={false}
                w={{ base: '100%', sm: 220 }}
              />
              {(method === 'fixed' || method === 'percent') && (
                <NumberInput
                  label={method === 'fixed' ? 'Cases' : 'Percent'}
                  value={amount}
                  onChange={setAmount}
                  min={method === 'fixed' ? 1 : 0.1}
                  max={method === 'fixed' ? 10000 : 100}
                  w={{ base: '100%', sm: 140 }}
                />
              )}
              <Checkbox
                label="Each unit separately"
                checked={byUnit}
                onChange={(event) => setByUnit(event.currentTarget.checked)}
              />
              <TextInput
                label="Seed"
                description="Leave empty for a new random seed."
                value={seed}
                onChange={(event) => setSeed(event.currentTarget.value)}
                maxLength={100}
                w={{ base: '100%', sm: 280 }}
              />
            </Group>
          )}
          <ErrorNotice message={error} />
          <Group>
            <Button type="submit" loading={draw.isPending}>
              {drawn ? 'Draw again' : 'Draw'}
            </Button>
          </Group>
        </Stack>
      </form>
      <DialogModal opened={asking} onClose={() => setAsking(false)} title="Draw the sample again?">
        <Stack gap="md">
          <Text>A new draw replaces the selection and clears every exclusion made so far.</Text>
          <DialogActions onCancel={() => setAsking(false)} gap="md">
            <Button color="red" onClick={() => void run()}>
              Draw again
            </Button>
          </DialogActions>
        </Stack>
      </DialogModal>
    </Paper>
  );
}

function ReasonField({
  label,
  value,
  onChange,
  error,
  description,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  description?: string;
}) {
  return (
    <Textarea
      label={label}
      description={description}
      required
      rows={2}
      maxLength={500}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      data-autofocus
    />
  );
}

function ExcludeModal({
  projectId,
  target,
  onClose,
}: {
  projectId: string;
  target: CrSampleCase | null;
  onClose: () => void;
}) {
  const exclude = useExcludeCase(projectId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  function close() {
    setReason('');
    setError(undefined);
    setFailure(null);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const parsed = crReasonSchema.safeParse(reason);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setFailure(null);
    try {
      const result = await exclude.mutateAsync({ caseId: target.id, reason: parsed.data });
      toast.success(
        result.replacement_case_code
          ? `${target.case_code} excluded; ${result.replacement_case_code} takes its place.`
          : `${target.case_code} excluded; no case was left to replace it.`,
      );
      close();
    } catch (failed) {
      const fields = serverFieldErrors(failed, ['reason'] as const);
      setError(fields.reason);
      if (!fields.reason) setFailure(messageFor(failed, 'The case could not be excluded. Please try again.'));
    }
  }

  return (
    <DialogModal opened={target !== null} onClose={close} title={target ? `Exclude ${target.case_code}` : 'Exclude'}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Exclude a case">
        <Stack gap="md">
          <Text size="sm">
            The next ranked case of the same unit takes its place. Reviews already assigned move to that case.
          </Text>
          <ReasonField
            label="Reason"
            description="For example: transferred out, wrong unit, chart unavailable. No patient details."
            value={reason}
            onChange={(value) => {
              setReason(value);
              setError(undefined);
            }}
            error={error}
          />
          <ErrorNotice message={failure} />
          <DialogActions onCancel={close} gap="md">
            <Button type="submit" color="red" loading={exclude.isPending}>
              Exclude case
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </DialogModal>
  );
}

function PullListModal({
  projectId,
  sample,
  opened,
  onClose,
}: {
  projectId: string;
  sample: CrSample;
  opened: boolean;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const valid = crReasonSchema.safeParse(reason);
  const [touched, setTouched] = useState(false);
  function close() {
    setReason('');
    setTouched(false);
    onClose();
  }
  return (
    <DialogModal opened={opened} onClose={close} title="Download the pull list">
      <Stack gap="md">
        <Text size="sm">
          The pull list holds the encounter references of the selected cases, so the records team can pull the charts.
          Every download is logged with its reason.
        </Text>
        <ReasonField
          label="Reason"
          value={reason}
          onChange={(value) => {
            setReason(value);
            setTouched(true);
          }}
          error={touched && !valid.success ? valid.error.issues[0]?.message : undefined}
        />
        <DialogActions onCancel={close} gap="md">
          {valid.success ? (
            <Button
              component="a"
              href={pullListUrl(projectId, sample.id, valid.data)}
              download
              onClick={() => {
                toast.success('Pull list downloaded; the download is logged.');
                close();
              }}
            >
              Download
            </Button>
          ) : (
            <Button onClick={() => setTouched(true)}>Download</Button>
          )}
        </DialogActions>
      </Stack>
    </DialogModal>
  );
}

function LockModal({
  projectId,
  sample,
  onClose,
  onPullList,
}: {
  projectId: string;
  sample: CrSample;
  onClose: () => void;
  onPullList: () => void;
}) {
  const lock = useLockSample(projectId, sample.id);
  const people = useCrPeople(projectId);
  const [mode, setMode] = useState<CrLockMode>('round_robin');
  const [reviewers, setReviewers] = useState<string[]>([]);
  const [unitReviewers, setUnitReviewers] = useState<Record<string, string[]>>({});
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const choices = (people.data ?? [])
    .filter((person) => person.role !== 'viewer')
    .map((person) => ({ value: String(person.id), label: person.name }));
  const units = [...new Set(sample.cases.map((c) => c.unit).filter((unit): unit is string => unit !== null))].sort();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (reviewers.length === 0) found.reviewer_ids = 'Choose at least one reviewer.';
    if (!confirmed) found.confirm = 'Confirm that the selection is final.';
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await lock.mutateAsync({
        mode,
        reviewer_ids: reviewers.map(Number),
        ...(mode === 'by_unit'
          ? {
              unit_reviewers: Object.fromEntries(
                Object.entries(unitReviewers).map(([unit, ids]) => [unit, ids.map(Number)]),
              ),
            }
          : {}),
      });
      toast.success('Sample locked and reviews assigned. The reviewers have been notified.');
      onClose();
    } catch (failed) {
      const fields = serverFieldErrors(failed, [
        'reviewer_ids',
        ...units.map((unit) => `unit_reviewers.${unit}`),
      ]) as Record<string, string>;
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(failed, 'The sample could not be locked. Please try again.'));
      }
    }
  }

  return (
    <DialogModal opened onClose={onClose} title="Lock and assign" size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Lock and assign">
        <Stack gap="md">
          <Text size="sm">
            Locking fixes the {sample.counts.selected} selected cases and gives each a primary review; the programme's
            second-review share goes, blind, to another reviewer. Reviewers never get cases of a unit they work on when
            the conflict-of-interest rule is on.
          </Text>
          {!sample.keeps_refs && (
            <Alert color="orange.9" variant="light" title="Encounter references are purged">
              This project does not keep encounter references: locking deletes them from every case of this sample.
              Download the pull list first if the records team still needs it.
              {sample.abilities.pull_list && (
                <Group mt="xs">
                  <Button size="compact-sm" variant="light" onClick={onPullList}>
                    Download pull list
                  </Button>
                </Group>
              )}
            </Alert>
          )}
          <div>
            <Text size="sm" fw={500} mb={4} id="lock-mode-label">
              How to assign
            </Text>
            <SegmentedControl
              aria-labelledby="lock-mode-label"
              value={mode}
              onChange={(value) => setMode(value as CrLockMode)}
              data={[
                { value: 'round_robin', label: 'Round robin' },
                { value: 'by_unit', label: 'By unit' },
              ]}
            />
          </div>
          <MultiSelect
            label={mode === 'by_unit' ? 'Reviewers for other units and second reviews' : 'Reviewers'}
            data={choices}
            value={reviewers}
            onChange={setReviewers}
            searchable
            required
            error={errors.reviewer_ids}
            nothingFoundMessage="Nobody found"
          />
          {mode === 'by_unit' &&
            units.map((unit) => (
              <MultiSelect
                key={unit}
                label={`Reviewers for ${unit}`}
                data={choices}
                value={unitReviewers[unit] ?? []}
                onChange={(value) => setUnitReviewers((current) => ({ ...current, [unit]: value }))}
                searchable
                error={errors[`unit_reviewers.${unit}`]}
              />
            ))}
          <Checkbox
            label="The selection is final: lock it and notify the reviewers"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.currentTarget.checked)}
            error={errors.confirm}
          />
          <ErrorNotice message={failure} />
          <DialogActions onCancel={onClose} gap="md">
            <Button type="submit" loading={lock.isPending}>
              Lock and assign
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </DialogModal>
  );
}
