import { Anchor, Badge, Group, SimpleGrid, Stack, Switch, Table, Text } from '@mantine/core';
import { type PolicySection, permissionKey, REVIEW_DUE_SOON_DAYS } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { usePageTitle } from '../../../lib/use-page-title';
import { type DepartmentHealth, useDepartmentHealth } from '../api/get-department-health';
import {
  AttestationBar,
  DepartmentLabel,
  inTreeOrder,
  NoDepartments,
  nestedCellStyle,
  SectionCard,
} from './department-parts';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

const TITLE = 'Department health';

export const ALL_READY = 'Every department is ready: none has a gap.';

/** The three people columns, the section that fixes each and how the fix link reads. */
const PEOPLE = [
  { key: 'reviewers', label: 'Reviewers', section: 'department-reviewers', fix: 'Add reviewers' },
  { key: 'signers', label: 'Signers', section: 'department-signers', fix: 'Add signers' },
  { key: 'readers', label: 'Readers', section: 'department-readers', fix: 'Add readers' },
] as const;

/**
 * /app/policy_management/{projectId}/healthy-departments: whether each department can run the review, signature
 * and attestation workflow (reviewers, signers, readers), its reviews due and how far its policies have been read.
 */
export function HealthyDepartmentsPage() {
  usePageTitle(TITLE);
  const projectId = usePolicyProjectId();
  const health = useDepartmentHealth(projectId);
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  const may = (section: PolicySection) => permissions.data?.[permissionKey('policy_management', section)] === true;
  const [onlyGaps, setOnlyGaps] = useState(false);

  const total = health.data?.length;
  const withGaps = health.data?.filter((department) => department.gaps.length > 0).length ?? 0;
  // Always there (a dash while loading), so nothing below moves when the numbers arrive.
  const summary = (
    <SimpleGrid cols={3} spacing="md" maw={560} data-testid="health-summary">
      <Count label="Departments" value={total} />
      <Count label="Ready" value={total === undefined ? undefined : total - withGaps} color="teal.8" />
      <Count
        label="With gaps"
        value={total === undefined ? undefined : withGaps}
        color={withGaps > 0 ? 'red.8' : undefined}
      />
    </SimpleGrid>
  );
  return (
    <Stack gap="lg" w="100%" maw={1400}>
      <PageHeading title={TITLE}>
        A department is ready when it has reviewers, signers and readers, and no periodic review is overdue.
      </PageHeading>
      {summary}
      <SectionCard
        title="Departments"
        action={
          <Switch
            label="Only departments with gaps"
            checked={onlyGaps}
            onChange={(event) => setOnlyGaps(event.currentTarget.checked)}
            disabled={!health.data || health.data.length === 0}
          />
        }
      >
        <QueryBody
          query={health}
          fallback="The departments could not be loaded. Please try again."
          loadingLabel="Loading the departments"
          rows={5}
        >
          {(departments) => (
            <HealthOverview
              projectId={projectId}
              departments={departments}
              withGaps={withGaps}
              onlyGaps={onlyGaps}
              may={may}
            />
          )}
        </QueryBody>
      </SectionCard>
    </Stack>
  );
}

/** The departments' health: a sentence summing it up and the table (only those with gaps when `onlyGaps`). */
function HealthOverview({
  projectId,
  departments,
  withGaps,
  onlyGaps,
  may,
}: {
  projectId: string;
  departments: DepartmentHealth[];
  withGaps: number;
  onlyGaps: boolean;
  may: (section: PolicySection) => boolean;
}) {
  if (departments.length === 0) {
    return <NoDepartments projectId={projectId} mayAdd={may('insert-department')} />;
  }
  const shown = departments.filter((department) => !onlyGaps || department.gaps.length > 0);
  return (
    <>
      <Text size="sm" data-testid="health-sentence">
        {withGaps === 0
          ? ALL_READY
          : `${(departments.length - withGaps).toLocaleString('en-US')} of ${departments.length.toLocaleString('en-US')} departments are ready; ${withGaps.toLocaleString('en-US')} ${withGaps === 1 ? 'has' : 'have'} gaps to fix.`}
      </Text>
      {shown.length === 0 ? (
        <Text c="dimmed">{ALL_READY}</Text>
      ) : (
        <HealthTable projectId={projectId} departments={departments} shown={shown} may={may} />
      )}
    </>
  );
}

function Count({ label, value, color }: { label: string; value: number | undefined; color?: string }) {
  return (
    <Stack gap={2} data-count={label}>
      <Text fz="h3" fw={700} lh={1.1} c={value === undefined ? 'dimmed' : color}>
        {value === undefined ? '—' : value.toLocaleString('en-US')}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

function HealthTable({
  projectId,
  departments,
  shown,
  may,
}: {
  projectId: string;
  departments: DepartmentHealth[];
  shown: DepartmentHealth[];
  may: (section: PolicySection) => boolean;
}) {
  const visible = new Set(shown.map((department) => department.id));
  // Tree order of every department, so a sub-department keeps its indent when its parent is filtered out.
  const rows = inTreeOrder(departments).filter(({ department }) => visible.has(department.id));
  const reports = may('attestation-reports');
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Department health">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Department</Table.Th>
            {PEOPLE.map((column) => (
              <Table.Th key={column.key} scope="col" ta="right">
                {column.label}
              </Table.Th>
            ))}
            <Table.Th scope="col" ta="right">
              Policies
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Overdue reviews
            </Table.Th>
            <Table.Th scope="col" ta="right" title={`Periodic reviews due within ${REVIEW_DUE_SOON_DAYS} days`}>
              Due soon
            </Table.Th>
            <Table.Th scope="col">Attested</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ department, depth }) => (
            <Table.Tr
              key={department.id}
              data-department-id={department.id}
              data-ready={department.gaps.length === 0 || undefined}
            >
              <Table.Td style={nestedCellStyle(depth)}>
                <DepartmentLabel
                  name={department.name}
                  code={department.code}
                  to={reports ? policyRoute(projectId, `attestation-reports/${department.id}`) : undefined}
                />
                {/* The gaps sit under the name, so the table fits a laptop without scrolling sideways. */}
                <Group gap={4} wrap="wrap" mt={6} data-column="gaps">
                  {department.gaps.length === 0 ? (
                    <Badge color="teal.8" variant="light" radius="sm">
                      Ready
                    </Badge>
                  ) : (
                    department.gaps.map((gap) => (
                      <Badge key={gap} color="red.8" variant="light" radius="sm" tt="none">
                        {gap}
                      </Badge>
                    ))
                  )}
                </Group>
              </Table.Td>
              {PEOPLE.map((column) => {
                const count = department[column.key];
                return (
                  <Table.Td key={column.key} ta="right" data-column={column.key}>
                    {count > 0 ? (
                      count.toLocaleString('en-US')
                    ) : (
                      <Stack gap={0} align="flex-end">
                        <Text span size="sm" fw={700} c="red.8">
                          0
                        </Text>
                        {may(column.section) && (
                          <Anchor
                            component={Link}
                            to={policyRoute(projectId, `${column.section}/${department.id}`)}
                            size="xs"
                            aria-label={`${column.fix} to ${department.name}`}
                            style={{ whiteSpace: 'nowrap' }}
                          >
                            {column.fix}
                          </Anchor>
                        )}
                      </Stack>
                    )}
                  </Table.Td>
                );
              })}
              <Table.Td ta="right">{department.documents.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right" data-column="overdue">
                <Text
                  span
                  size="sm"
                  fw={department.overdue_reviews > 0 ? 700 : undefined}
                  c={department.overdue_reviews > 0 ? 'red.8' : undefined}
                >
                  {department.overdue_reviews.toLocaleString('en-US')}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{department.due_soon_reviews.toLocaleString('en-US')}</Table.Td>
              <Table.Td>
                <AttestationBar
                  attested={department.attested}
                  required={department.required}
                  rate={department.attestation_rate}
                  label={department.name}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
