import { Anchor, Badge, Button, Group, Pill, Progress, Stack, Table, Text } from '@mantine/core';
import { documentName } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type DepartmentAttestations,
  departmentAttestationsCsvUrl,
  useDepartmentAttestations,
} from '../api/get-department-attestations';
import {
  AttestationBar,
  departmentIdParam,
  isNotFound,
  MissingDepartment,
  percent,
  rateColor,
  SectionCard,
} from './department-parts';
import { documentPage } from './document-format';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

const TITLE = 'Attestation report';

export const NO_PUBLISHED = 'No published policies in this department yet.';

/** Pending readers shown before "Show all". */
const PENDING_SHOWN = 6;

/**
 * /app/policy_management/{projectId}/attestation-reports/{departmentId}: how far the department's readers have
 * read and attested the current version of each of its published policies, with a CSV download.
 */
export function DepartmentAttestationsPage() {
  usePageTitle(TITLE);
  const projectId = usePolicyProjectId();
  const { departmentId } = useParams();
  const id = departmentIdParam(departmentId);
  const back = policyRoute(projectId, 'healthy-departments');
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title={TITLE}>
        Who has read and attested the current version of each published policy of the department.
      </PageHeading>
      {id === null ? (
        <MissingDepartment back={back} backLabel="Back to department health" />
      ) : (
        <Report key={id} projectId={projectId} departmentId={id} />
      )}
    </Stack>
  );
}

function Report({ projectId, departmentId }: { projectId: string; departmentId: number }) {
  const report = useDepartmentAttestations(projectId, departmentId);
  if (report.data) return <ReportView projectId={projectId} report={report.data} />;
  if (report.isError) {
    if (isNotFound(report.error)) {
      return (
        <MissingDepartment back={policyRoute(projectId, 'healthy-departments')} backLabel="Back to department health" />
      );
    }
    return (
      <LoadFailure
        error={report.error}
        fallback="The attestation report could not be loaded. Please try again."
        retrying={report.isFetching}
        onRetry={() => void report.refetch()}
      />
    );
  }
  return <LoadingRows label="Loading the attestation report" rows={5} />;
}

function ReportView({ projectId, report }: { projectId: string; report: DepartmentAttestations }) {
  const { department } = report;
  const rate = report.required === 0 ? null : (report.rate ?? report.attested / report.required);
  let overall: ReactNode;
  if (report.documents.length === 0) overall = null;
  else if (rate === null) {
    overall = (
      <Text size="sm" c="dimmed">
        Nobody has to read these policies: the department has no readers.
      </Text>
    );
  } else {
    overall = (
      <Stack gap={6}>
        <Text size="sm" data-testid="overall">
          {report.attested.toLocaleString('en-US')} of {report.required.toLocaleString('en-US')} attestations (
          {percent(rate)}).
        </Text>
        <Progress value={rate * 100} color={rateColor(rate)} aria-label={`Overall: ${percent(rate)} attested`} />
      </Stack>
    );
  }
  return (
    <>
      <SectionCard
        title={`${department.name} (${department.code})`}
        action={
          <Button
            component="a"
            href={departmentAttestationsCsvUrl(projectId, department.id)}
            download
            variant="default"
          >
            Download CSV
          </Button>
        }
      >
        <Text size="sm" c="dimmed">
          {report.readers.length === 1
            ? '1 reader must read each published policy.'
            : `${report.readers.length.toLocaleString('en-US')} readers must read each published policy.`}{' '}
          <Anchor
            component={Link}
            to={policyRoute(projectId, `department-readers/${department.id}`)}
            size="sm"
            underline="always"
          >
            Readers of {department.name}
          </Anchor>
        </Text>
        {overall}
      </SectionCard>
      <SectionCard title="Published policies">
        {report.documents.length === 0 ? (
          <Text>{NO_PUBLISHED}</Text>
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table verticalSpacing="sm" aria-label={`Published policies of ${department.name}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Policy</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Version
                  </Table.Th>
                  <Table.Th scope="col">Effective</Table.Th>
                  <Table.Th scope="col">Attested</Table.Th>
                  <Table.Th scope="col">Still to read</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.documents.map((document) => (
                  <Table.Tr key={document.id} data-document-id={document.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Anchor component={Link} to={documentPage(projectId, document.id)} size="sm" fw={600}>
                        {documentName(document)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="right">{document.version}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(document.effective_on)}</Table.Td>
                    <Table.Td>
                      <AttestationBar
                        attested={document.attested}
                        required={document.required}
                        rate={document.rate}
                        label={documentName(document)}
                      />
                    </Table.Td>
                    <Table.Td data-column="pending">
                      <PendingReaders pending={document.pending} required={document.required} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </SectionCard>
    </>
  );
}

function PendingReaders({ pending, required }: { pending: { id: number; name: string }[]; required: number }) {
  const [all, setAll] = useState(false);
  if (required === 0) return <Text size="sm">—</Text>;
  if (pending.length === 0) {
    return (
      <Badge color="teal.8" variant="light" radius="sm">
        Everyone has read it
      </Badge>
    );
  }
  const sorted = [...pending].sort((a, b) => a.name.localeCompare(b.name));
  const shown = all ? sorted : sorted.slice(0, PENDING_SHOWN);
  return (
    <Group gap={4} wrap="wrap" maw={360}>
      {shown.map((person) => (
        <Pill key={person.id}>{person.name}</Pill>
      ))}
      {sorted.length > PENDING_SHOWN && (
        <Button variant="subtle" size="compact-xs" onClick={() => setAll((value) => !value)}>
          {all ? 'Show fewer' : `Show all ${sorted.length}`}
        </Button>
      )}
    </Group>
  );
}
