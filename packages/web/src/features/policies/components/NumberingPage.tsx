import {
  Anchor,
  Box,
  Button,
  Code,
  Collapse,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  compareNumbers,
  MAX_LEVELS,
  newPolicyParent,
  nextNumber,
  numberingSchemeSchema,
  numberProblem,
  type PrefixSeparator,
  prefixFor,
} from '@portal/shared';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice, LoadFailure, LoadingRows, PageHeading, SectionCard } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { ApiError, messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type Department, useDepartments } from '../api/get-departments';
import { type Scheme, useNumbering } from '../api/get-numbering';
import { type DocumentRow, useUnassigned } from '../api/get-unassigned';
import { chapterOf, type NumbersInUse, useUsedNumbers } from '../api/get-used-numbers';
import { useUpdateNumbering } from '../api/update-numbering';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

export const NO_UNASSIGNED = 'Every policy has a number.';
export const TAKEN = 'This number is already used.';
export const TWICE = 'This number is given to another document above.';

const SEPARATORS: { value: PrefixSeparator; label: string }[] = [
  { value: '-', label: 'Hyphen (NUR-1.2)' },
  { value: '.', label: 'Full stop (NUR.1.2)' },
];

/** What a number looks like under the scheme, e.g. "NUR-1.2.3" (the department code is an example). */
export function exampleNumber(scheme: Scheme): string {
  const levels = Math.min(Math.max(1, Math.trunc(scheme.levels) || 1), MAX_LEVELS);
  const digits = Array.from({ length: levels }, (_, index) => index + 1).join('.');
  return `${prefixFor(scheme, 'NUR')}${digits}`;
}

/** /app/policy_management/{projectId}/numbering: the numbering scheme and numbers for the documents without one. */
export function NumberingPage() {
  usePageTitle('Numbering');
  const projectId = usePolicyProjectId();
  const numbering = useNumbering(projectId);
  const used = useUsedNumbers(projectId);

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title="Numbering">
        How policy numbers are built, and numbers for the documents that have none yet.
      </PageHeading>
      <SectionCard id="scheme-heading" title="Numbering scheme">
        {numbering.isPending ? (
          <LoadingRows label="Loading the numbering scheme" rows={3} />
        ) : numbering.isError ? (
          <LoadFailure
            error={numbering.error}
            fallback="The numbering scheme could not be loaded. Please try again."
            retrying={numbering.isFetching}
            onRetry={() => void numbering.refetch()}
          />
        ) : (
          <SchemeForm
            key={JSON.stringify(numbering.data.scheme)}
            projectId={projectId}
            scheme={numbering.data.scheme}
          />
        )}
      </SectionCard>
      <SectionCard id="used-heading" title="Numbers in use">
        {used.isPending ? (
          <LoadingRows label="Loading the numbers in use" rows={1} />
        ) : used.isError ? (
          <LoadFailure
            error={used.error}
            fallback="The numbers in use could not be loaded. Please try again."
            retrying={used.isFetching}
            onRetry={() => void used.refetch()}
          />
        ) : (
          <UsedNumbers numbers={used.data.numbers} />
        )}
      </SectionCard>
      <SectionCard id="unassigned-heading" title="Documents without a number">
        <Unassigned projectId={projectId} />
      </SectionCard>
    </Stack>
  );
}

type SchemeField = 'levels' | 'prefix_separator';

function SchemeForm({ projectId, scheme }: { projectId: string; scheme: Scheme }) {
  const update = useUpdateNumbering(projectId);
  const [levels, setLevels] = useState<number | string>(scheme.levels);
  const [prefixes, setPrefixes] = useState(scheme.department_prefixes);
  const [separator, setSeparator] = useState<PrefixSeparator>(scheme.prefix_separator);
  const [errors, setErrors] = useState<Partial<Record<SchemeField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const draft = {
    levels: typeof levels === 'number' ? levels : Number.NaN,
    department_prefixes: prefixes,
    prefix_separator: separator,
  };
  const changed =
    draft.levels !== scheme.levels ||
    prefixes !== scheme.department_prefixes ||
    (prefixes && separator !== scheme.prefix_separator);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    if (typeof levels !== 'number' || levels === 0) {
      setErrors({ levels: 'Enter how many levels numbers may have.' });
      return;
    }
    const parsed = numberingSchemeSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors({ levels: parsed.error.issues[0]?.message ?? 'Use 1 to 6 levels.' });
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync({ scheme: parsed.data });
      toast.success('Numbering saved.');
    } catch (error) {
      const found = serverFieldErrors(error, [
        'scheme.levels',
        'levels',
        'scheme.prefix_separator',
        'prefix_separator',
      ]);
      const fields = {
        levels: found['scheme.levels'] ?? found.levels,
        prefix_separator: found['scheme.prefix_separator'] ?? found.prefix_separator,
      };
      setErrors(fields);
      if (!fields.levels && !fields.prefix_separator) {
        setFailure(messageFor(error, 'The numbering could not be saved. Please try again.'));
      }
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="scheme-heading">
      <Stack gap="md" maw={520}>
        <ErrorNotice message={failure} />
        <NumberInput
          label="Levels"
          description={`How deep numbers go: 1.2.3 has three levels (1 to ${MAX_LEVELS}).`}
          min={1}
          max={MAX_LEVELS}
          allowDecimal={false}
          allowNegative={false}
          value={levels}
          onChange={(value) => {
            setLevels(value);
            setErrors((previous) => ({ ...previous, levels: undefined }));
          }}
          error={errors.levels}
          maw={200}
        />
        <Switch
          label="Prefix numbers with the department code"
          description="Numbers of a department with a code then start with it."
          checked={prefixes}
          onChange={(event) => setPrefixes(event.currentTarget.checked)}
        />
        <Select
          label="Separator"
          description="Between the department code and the number."
          data={SEPARATORS}
          value={separator}
          onChange={(value) => {
            if (value === '-' || value === '.') setSeparator(value);
            setErrors((previous) => ({ ...previous, prefix_separator: undefined }));
          }}
          allowDeselect={false}
          disabled={!prefixes}
          error={errors.prefix_separator}
          maw={260}
        />
        <Text size="sm" data-testid="number-example">
          Example: <Code>{exampleNumber({ ...draft, levels: draft.levels || scheme.levels })}</Code>
        </Text>
        <Group>
          <Button type="submit" loading={update.isPending} disabled={!changed}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function UsedNumbers({ numbers }: { numbers: string[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const sorted = useMemo(() => [...numbers].sort(compareNumbers), [numbers]);
  if (sorted.length === 0) return <Text>No number is in use yet.</Text>;
  return (
    <Stack gap="sm">
      <Text data-testid="used-count">
        {sorted.length} {sorted.length === 1 ? 'number is' : 'numbers are'} in use.
      </Text>
      <Group>
        <Button
          variant="default"
          size="compact-md"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Hide the numbers in use' : 'Show the numbers in use'}
        </Button>
      </Group>
      <Collapse expanded={open} id={listId}>
        <Box
          component="ul"
          aria-label="Numbers in use"
          mah="16rem"
          p="sm"
          m={0}
          style={{
            overflowY: 'auto',
            listStyle: 'none',
            display: 'flex',
            flexWrap: 'wrap',
            gap: '0.5rem',
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          {sorted.map((number) => (
            <li key={number}>
              <Code>{number}</Code>
            </li>
          ))}
        </Box>
      </Collapse>
    </Stack>
  );
}

function Unassigned({ projectId }: { projectId: string }) {
  const numbering = useNumbering(projectId);
  const used = useUsedNumbers(projectId);
  const unassigned = useUnassigned(projectId);
  const departments = useDepartments(projectId);
  const queries = [unassigned, numbering, used, departments];

  if (queries.some((query) => query.isPending)) return <LoadingRows label="Loading the documents without a number" />;
  const failed = queries.find((query) => query.isError);
  if (failed) {
    return (
      <LoadFailure
        error={failed.error}
        fallback="The documents without a number could not be loaded. Please try again."
        retrying={queries.some((query) => query.isFetching)}
        onRetry={() => {
          for (const query of queries) if (query.isError) void query.refetch();
        }}
      />
    );
  }
  if (!unassigned.data || !numbering.data || !used.data || !departments.data) return null;
  if (unassigned.data.length === 0) return <Text>{NO_UNASSIGNED}</Text>;
  return (
    <AssignForm
      // New suggestions once the lists change (after an assignment or a scheme change).
      key={`${unassigned.dataUpdatedAt}-${used.dataUpdatedAt}-${numbering.dataUpdatedAt}`}
      projectId={projectId}
      rows={unassigned.data}
      inUse={used.data}
      scheme={numbering.data.scheme}
      departments={departments.data}
    />
  );
}

/**
 * A first free number for each row, where a new policy of its department goes (`newPolicyParent`: the department's
 * prefix, else its chapter, else the top level).
 */
function suggestions(rows: DocumentRow[], used: string[], scheme: Scheme, departments: Map<number, DepartmentPlace>) {
  const taken = [...used];
  const values: Record<number, string> = {};
  for (const row of rows) {
    const department = row.department_id === null ? null : (departments.get(row.department_id) ?? null);
    const number = nextNumber(taken, newPolicyParent(scheme, department));
    taken.push(number);
    values[row.id] = number;
  }
  return values;
}

/** A department's code and the chapter its policies are numbered in, as `newPolicyParent` reads them. */
interface DepartmentPlace {
  code: string | null;
  chapter: string | null;
}

interface AssignFormProps {
  projectId: string;
  rows: DocumentRow[];
  inUse: NumbersInUse;
  scheme: Scheme;
  departments: Department[];
}

function AssignForm({ projectId, rows, inUse, scheme, departments }: AssignFormProps) {
  const used = inUse.numbers;
  const update = useUpdateNumbering(projectId);
  const byId = useMemo(() => new Map(departments.map((department) => [department.id, department])), [departments]);
  const codes = useMemo(
    () => new Map(departments.map((department) => [department.id, department.code])),
    [departments],
  );
  const places = useMemo(
    () =>
      new Map(
        departments.map((department) => [
          department.id,
          { code: department.code, chapter: chapterOf(inUse, department.id) },
        ]),
      ),
    [departments, inUse],
  );
  const [values, setValues] = useState<Record<number, string>>(() => suggestions(rows, used, scheme, places));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function set(id: number, value: string) {
    setValues((previous) => ({ ...previous, [id]: value }));
    setErrors((previous) => {
      const { [id]: _, ...rest } = previous;
      return rest;
    });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    const usedSet = new Set(used);
    const seen = new Set<string>();
    const found: Record<number, string> = {};
    const assignments: { document_id: number; number: string }[] = [];
    for (const row of rows) {
      const number = (values[row.id] ?? '').trim();
      if (!number) continue;
      const code = row.department_id === null ? null : codes.get(row.department_id);
      const problem =
        numberProblem(number, scheme, code) ?? (usedSet.has(number) ? TAKEN : seen.has(number) ? TWICE : null);
      seen.add(number);
      if (problem) found[row.id] = problem;
      else assignments.push({ document_id: row.id, number });
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (assignments.length === 0) {
      setFailure('Enter a number for at least one document.');
      return;
    }
    try {
      await update.mutateAsync({ assignments });
      toast.success(`${assignments.length} ${assignments.length === 1 ? 'number' : 'numbers'} assigned.`);
    } catch (error) {
      const rowErrors = assignmentErrors(error, assignments);
      setErrors(rowErrors);
      if (Object.keys(rowErrors).length === 0) {
        setFailure(messageFor(error, 'The numbers could not be assigned. Please try again.'));
      }
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="unassigned-heading">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Each document is offered the next free number among its department's policies (a top-level number when it has
          no department or its department has none yet). Change it or clear it to leave the document without a number
          for now.
        </Text>
        <ErrorNotice message={failure} />
        <Box style={{ overflowX: 'auto' }}>
          <Table miw={640} verticalSpacing="sm" striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Title</Table.Th>
                <Table.Th scope="col">Department</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col" w={220}>
                  Number
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id} data-document-id={row.id}>
                  <Table.Td>
                    <Anchor component={Link} to={policyRoute(projectId, `documents/${row.id}`)}>
                      {row.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.department_id === null ? '—' : (byId.get(row.department_id)?.name ?? '—')}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={row.status} />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Number for ${row.title}`}
                      value={values[row.id] ?? ''}
                      onChange={(event) => set(row.id, event.currentTarget.value)}
                      error={errors[row.id]}
                      placeholder="No number"
                      autoComplete="off"
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
        <Group>
          <Button type="submit" loading={update.isPending}>
            Assign numbers
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The server's `assignments.{index}` messages, moved to the rows they were about. */
function assignmentErrors(error: unknown, assignments: { document_id: number }[]): Record<number, string> {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const raw = (error.body as { errors?: unknown } | null)?.errors;
  if (!raw || typeof raw !== 'object') return {};
  const found: Record<number, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const match = /^assignments\.(\d+)(?:\.|$)/.exec(key);
    const assignment = match ? assignments[Number(match[1])] : undefined;
    const message = Array.isArray(value) ? value[0] : value;
    if (assignment && typeof message === 'string' && !(assignment.document_id in found)) {
      found[assignment.document_id] = message;
    }
  }
  return found;
}
