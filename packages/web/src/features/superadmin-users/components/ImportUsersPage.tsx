import {
  Anchor,
  Badge,
  Button,
  Code,
  FileButton,
  Group,
  List,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  USER_IMPORT_COLUMN_HELP,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_BYTES,
  type UserImportPreview,
  type UserImportRow,
} from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ErrorNotice, SubpageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { fileText } from '../../../lib/file-text';
import { usePageTitle } from '../../../lib/use-page-title';
import { useImportStatus, useImportUsers, usePreviewImport } from '../api/import-users';

/** A file to start from: the header and one example row. */
const TEMPLATE = `${USER_IMPORT_COLUMNS.join(',')}\nana.ruiz@hospital.org,Ana,Ruiz,,Demo Facility,member,reader,viewer,,NUR\n`;
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;
/** Rows shown at once: a large file's problems first, the rest counted. */
const SHOWN = 300;

const people = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;

/**
 * /superadmin/users/import: people from a CSV file, for facilities without a directory. The file is checked first
 * (each row's problems in words, nothing written); then all rows are imported or none, and the invitations go out
 * with their progress shown.
 */
export function ImportUsersPage() {
  usePageTitle('Import people');
  const preview = usePreviewImport();
  const run = useImportUsers();
  const [file, setFile] = useState<{ name: string; csv: string } | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [importId, setImportId] = useState<number | null>(null);

  async function choose(chosen: File | null) {
    if (!chosen) return;
    setFileProblem(null);
    preview.reset();
    run.reset();
    setImportId(null);
    if (chosen.size > USER_IMPORT_MAX_BYTES) {
      setFile(null);
      setFileProblem('The file is larger than 2 MB: split it into several files.');
      return;
    }
    const csv = await fileText(chosen);
    setFile({ name: chosen.name, csv });
    preview.mutate(csv);
  }

  async function confirm() {
    setConfirming(false);
    if (!file) return;
    const status = await run.mutateAsync(file.csv).catch(() => null);
    if (status) setImportId(status.id);
  }

  const checked = preview.data;
  const ready = checked && checked.file_problems.length === 0 && checked.with_problems === 0 && checked.ready > 0;
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <SubpageHeading
        back={{ to: '/superadmin/users', label: 'Users' }}
        title="Import people"
        description="For a facility without a directory to provision from: a CSV file with a line per person. Each gets an invitation to choose a password."
      />
      {importId !== null ? (
        <ImportProgress id={importId} />
      ) : (
        <>
          <FileCard fileName={file?.name ?? null} busy={preview.isPending} onChoose={(f) => void choose(f)} />
          <ErrorNotice message={fileProblem} />
          <ErrorNotice
            message={
              preview.isError ? messageFor(preview.error, 'The file could not be checked. Please try again.') : null
            }
          />
          {checked && <PreviewCard preview={checked} />}
          {checked && (
            <Stack gap={6} align="flex-start">
              <Button disabled={!ready} loading={run.isPending} onClick={() => setConfirming(true)}>
                {checked.ready > 0 ? `Import ${people(checked.ready + checked.with_problems)}` : 'Import'}
              </Button>
              {!ready && (
                <Text size="sm" c="gray.7">
                  {checked.file_problems.length
                    ? 'The file itself must be corrected first (see above).'
                    : 'Nothing is imported while a row has a problem: correct the file and choose it again.'}
                </Text>
              )}
              <ErrorNotice
                message={
                  run.isError ? messageFor(run.error, 'The people could not be imported. Please try again.') : null
                }
              />
            </Stack>
          )}
        </>
      )}
      <ConfirmActionModal
        opened={confirming}
        title={`Import ${people(checked?.ready ?? 0)}?`}
        message={`${people(checked?.ready ?? 0)} get an account, their projects and roles, and an invitation email to choose a password (valid for 7 days).`}
        confirmLabel="Import and send invitations"
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

function FileCard({
  fileName,
  busy,
  onChoose,
}: {
  fileName: string | null;
  busy: boolean;
  onChoose: (file: File | null) => void;
}) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          The file
        </Title>
        <Text size="sm">
          A CSV file (UTF-8, commas) whose first line names the columns; only <Code>email</Code>,{' '}
          <Code>first_name</Code> and <Code>last_name</Code> are required.{' '}
          <Anchor href={TEMPLATE_HREF} download="people-template.csv">
            Download a template
          </Anchor>
          .
        </Text>
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing={4} fz="sm">
            <Table.Tbody>
              {USER_IMPORT_COLUMNS.map((column) => (
                <Table.Tr key={column}>
                  <Table.Th scope="row" fw={600} w={180}>
                    <Code>{column}</Code>
                  </Table.Th>
                  <Table.Td>{withCodes(USER_IMPORT_COLUMN_HELP[column])}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group gap="sm">
          <FileButton onChange={onChoose} accept=".csv,text/csv">
            {(props) => (
              <Button variant={fileName ? 'default' : 'filled'} loading={busy} {...props}>
                {fileName ? 'Choose another file' : 'Choose a CSV file'}
              </Button>
            )}
          </FileButton>
          {fileName && (
            <Text size="sm" c="gray.7">
              {fileName}
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** A help text whose values to type in the file (`policy_admin`) are set as code, the rest as words. */
function withCodes(text: string) {
  const codes = new Set(text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []);
  // A help text names each value once, so the value is its own key.
  return text
    .split(/\b([a-z]+(?:_[a-z]+)+)\b/)
    .map((part) => (codes.has(part) ? <Code key={part}>{part}</Code> : part));
}

function PreviewCard({ preview }: { preview: UserImportPreview }) {
  const [which, setWhich] = useState<'problems' | 'all'>(preview.with_problems ? 'problems' : 'all');
  if (preview.file_problems.length) {
    return (
      <ErrorNotice
        message={
          <List size="sm" spacing={4}>
            {preview.file_problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        }
      />
    );
  }
  const rows = which === 'problems' ? preview.rows.filter((r) => r.problems.length) : preview.rows;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h4">
            Checked: {people(preview.ready)} ready
            {preview.with_problems > 0 && `, ${preview.with_problems.toLocaleString('en-US')} with problems`}
          </Title>
          {preview.with_problems > 0 && (
            <SegmentedControl
              aria-label="Rows shown"
              value={which}
              onChange={(value) => setWhich(value as 'problems' | 'all')}
              data={[
                { value: 'problems', label: 'With problems' },
                { value: 'all', label: 'All rows' },
              ]}
            />
          )}
        </Group>
        <ScrollTable
          minWidth={900}
          columns={['Line', 'Person', 'Project and roles', 'Check']}
          fz="sm"
          data-testid="import-rows"
        >
          {rows.slice(0, SHOWN).map((row) => (
            <PreviewRow key={row.line} row={row} />
          ))}
        </ScrollTable>
        {rows.length > SHOWN && (
          <Text size="sm" c="gray.7">
            The first {SHOWN} of {rows.length.toLocaleString('en-US')} rows are shown.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

const ROLE_LABELS = { policy_management: 'Policy', monitoring: 'Monitoring', chart_review: 'Chart review' } as const;

function PreviewRow({ row }: { row: UserImportRow }) {
  const roles = (Object.keys(ROLE_LABELS) as (keyof typeof ROLE_LABELS)[])
    .filter((app) => row.main_roles[app])
    .map((app) => `${ROLE_LABELS[app]}: ${row.main_roles[app]}`);
  return (
    <Table.Tr>
      <Table.Td>{row.line}</Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {[row.first_name, row.last_name].filter(Boolean).join(' ') || '—'}
        </Text>
        <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
          {row.email || '—'}
          {row.username && ` · ${row.username}`}
        </Text>
      </Table.Td>
      <Table.Td>
        {row.project ? (
          <>
            <Text size="sm">
              {row.project} · {row.project_role === 'admin' ? 'project admin' : 'member'}
            </Text>
            {(roles.length > 0 || row.reader_departments.length > 0) && (
              <Text size="xs" c="gray.7">
                {[
                  ...roles,
                  ...(row.reader_departments.length ? [`reads ${row.reader_departments.join(', ')}`] : []),
                ].join(' · ')}
              </Text>
            )}
          </>
        ) : (
          <Text size="sm" c="gray.7">
            No project yet
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {row.problems.length === 0 ? (
          <Badge color="green.8" variant="light">
            Ready
          </Badge>
        ) : (
          <List size="sm" c="red.8" spacing={2}>
            {row.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** The invitations going out: a bar, the counts, and where failed ones can be sent again. */
function ImportProgress({ id }: { id: number }) {
  const status = useImportStatus(id);
  const data = status.data;
  const done = data ? data.sent + data.failed : 0;
  const percent = data && data.total > 0 ? Math.round((done / data.total) * 100) : 0;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {data?.finished ? 'Imported' : 'Sending the invitations…'}
        </Title>
        <Progress value={percent} aria-label="Invitations sent" animated={!data?.finished} />
        <Text size="sm" aria-live="polite">
          {data
            ? `${people(data.total)} imported; ${data.sent.toLocaleString('en-US')} of ${data.total.toLocaleString('en-US')} invitations sent${data.failed ? `, ${data.failed.toLocaleString('en-US')} failed` : ''}.`
            : 'Starting…'}
        </Text>
        {data?.failed ? (
          <Text size="sm">
            Failed invitations are in the{' '}
            <Anchor component={Link} to="/superadmin/email-logs">
              email log
            </Anchor>
            , from where they can be sent again.
          </Text>
        ) : null}
        {data?.finished && (
          <Group>
            <Button component={Link} to="/superadmin/users">
              Back to users
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
