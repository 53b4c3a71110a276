import { Anchor, Box, Group, List, Pagination, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUSES, type DocumentRow, type DocumentStatus } from '@portal/shared';
import { type ReactNode, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { formatDate, formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDepartments } from '../api/get-departments';
import { useDocuments } from '../api/get-documents';
import { byNumber } from './browse-ui';
import { NewPolicyButton } from './NewPolicyButton';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

const ALL = 'all';
/** Rows per page: a project can hold thousands of documents; a page of them stays quick to draw. */
export const DOCUMENTS_PAGE_SIZE = 100;

function isStatus(value: string): value is DocumentStatus {
  return (DOCUMENT_STATUSES as readonly string[]).includes(value);
}

function statusPath(projectId: string, status: string): string {
  return policyRoute(projectId, status === ALL ? 'documents' : `documents/status/${status}`);
}

function pageTitle(status: DocumentStatus | undefined): string {
  return status ? `${DOCUMENT_STATUS_LABELS[status]} documents` : 'Documents';
}

/**
 * Routes `documents` (every live document) and `documents/status/:status` (the documents in one status, archived
 * included): a table in number order, with a switch between the statuses.
 */
export function DocumentsStatusPage() {
  const { status: param } = useParams();
  const projectId = usePolicyProjectId();
  const valid = param === undefined || isStatus(param);
  const status = param !== undefined && isStatus(param) ? param : undefined;
  usePageTitle(valid ? pageTitle(status) : 'Unknown status');

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" gap="sm">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {valid ? pageTitle(status) : 'Documents'}
        </Title>
        <NewPolicyButton />
      </Group>
      {valid ? (
        <>
          <StatusSwitch projectId={projectId} value={status ?? ALL} />
          {/* A fresh table (first page) for each status. */}
          <DocumentsTable key={status ?? ALL} projectId={projectId} status={status} />
        </>
      ) : (
        <UnknownStatus projectId={projectId} />
      )}
    </Stack>
  );
}

function UnknownStatus({ projectId }: { projectId: string }) {
  return (
    <Stack gap="sm" align="flex-start" data-testid="unknown-status">
      <Text fw={600}>Unknown status.</Text>
      <Text>Choose one of these lists instead:</Text>
      <List>
        <List.Item>
          <Anchor component={Link} to={statusPath(projectId, ALL)}>
            All documents
          </Anchor>
        </List.Item>
        {DOCUMENT_STATUSES.map((status) => (
          <List.Item key={status}>
            <Anchor component={Link} to={statusPath(projectId, status)}>
              {DOCUMENT_STATUS_LABELS[status]}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

function StatusSwitch({ projectId, value }: { projectId: string; value: string }) {
  const navigate = useNavigate();
  // Six choices do not fit side by side on a phone: there they stack.
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <SegmentedControl
      aria-label="Status"
      value={value}
      onChange={(next) => navigate(statusPath(projectId, next))}
      orientation={narrow ? 'vertical' : 'horizontal'}
      fullWidth={narrow}
      style={{ alignSelf: narrow ? 'stretch' : 'flex-start', maxWidth: '100%' }}
      data={[
        { value: ALL, label: 'All' },
        ...DOCUMENT_STATUSES.map((status) => ({ value: status, label: DOCUMENT_STATUS_LABELS[status] })),
      ]}
    />
  );
}

function DocumentsTable({ projectId, status }: { projectId: string; status: DocumentStatus | undefined }) {
  const documents = useDocuments(projectId, { status });
  const departments = useDepartments(projectId);
  const [page, setPage] = useState(1);

  const sorted = useMemo(() => [...(documents.data ?? [])].sort(byNumber), [documents.data]);
  const departmentNames = useMemo(
    () => new Map((departments.data ?? []).map((department) => [department.id, department.name])),
    [departments.data],
  );

  if (documents.isPending) return <LoadingRows label="Loading the documents" />;
  if (documents.isError) {
    return (
      <LoadFailure
        error={documents.error}
        fallback="The documents could not be loaded. Please try again."
        retrying={documents.isFetching}
        onRetry={() => void documents.refetch()}
      />
    );
  }
  if (sorted.length === 0) return <Text c="dimmed">No policies found.</Text>;

  const pages = Math.ceil(sorted.length / DOCUMENTS_PAGE_SIZE);
  const current = Math.min(page, pages);
  const first = (current - 1) * DOCUMENTS_PAGE_SIZE;
  const shown = sorted.slice(first, first + DOCUMENTS_PAGE_SIZE);
  const departmentName = (id: number | null): ReactNode => {
    if (id === null)
      return (
        <Text span c="dimmed" inherit>
          None
        </Text>
      );
    return departmentNames.get(id) ?? (departments.isPending ? '…' : '—');
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid="documents-count">
        {sorted.length === 1 ? '1 document' : `${sorted.length.toLocaleString('en-US')} documents`}
        {pages > 1 &&
          ` (showing ${(first + 1).toLocaleString('en-US')}–${(first + shown.length).toLocaleString('en-US')})`}
      </Text>
      <Box style={{ overflowX: 'auto' }}>
        <Table miw={760} verticalSpacing="xs" aria-label="Documents" data-testid="documents-table" highlightOnHover>
          <ColumnHeads columns={['Number', 'Title', 'Department', 'Status', 'Next review', 'Updated']} />
          <Table.Tbody>
            {shown.map((doc) => (
              <DocumentTableRow
                key={doc.id}
                projectId={projectId}
                doc={doc}
                department={departmentName(doc.department_id)}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      {pages > 1 && (
        <Group justify="center">
          <Pagination
            total={pages}
            value={current}
            onChange={setPage}
            getControlProps={(control) => ({
              'aria-label': control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : undefined,
            })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        </Group>
      )}
    </Stack>
  );
}

interface DocumentTableRowProps {
  projectId: string;
  doc: DocumentRow;
  department: ReactNode;
}

function DocumentTableRow({ projectId, doc, department }: DocumentTableRowProps) {
  return (
    <Table.Tr data-document-id={doc.id}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {doc.number ?? (
          <Text span c="dimmed" inherit>
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Anchor
          component={Link}
          to={policyRoute(projectId, `documents/${doc.id}`)}
          style={{ overflowWrap: 'anywhere' }}
        >
          {doc.title}
        </Anchor>
        {doc.has_draft && (
          <Text size="xs" c="dimmed">
            Draft in progress
          </Text>
        )}
      </Table.Td>
      <Table.Td>{department}</Table.Td>
      <Table.Td>
        <StatusBadge status={doc.status} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(doc.next_review_on)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(doc.updated_at)}</Table.Td>
    </Table.Tr>
  );
}
