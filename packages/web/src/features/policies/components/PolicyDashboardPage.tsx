import {
  Anchor,
  Button,
  Group,
  NumberInput,
  Progress,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  BULK_ACTION_SECTION,
  BULK_ACTIONS,
  type BulkAction,
  DOCUMENT_STATUSES,
  documentName,
  formatPercent,
  permissionKey,
  REVIEW_DUE_SOON_DAYS,
  type ReviewDue,
  workflowSettingsSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice, PageHeading, QueryBody } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { useFormState } from '../../../components/shared-parts/use-form-state';
import { formatDateTime, formatDay } from '../../../lib/dates';
import { schemaFieldErrors } from '../../../lib/field-errors';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PolicyDashboard, useDashboard } from '../api/get-dashboard';
import { useSaveWorkflowSettings, useWorkflowSettings, type WorkflowSettings } from '../api/workflow-settings';
import { BrokenReferencesCard } from './BrokenReferencesCard';
import { SectionCard } from './department-parts';
import { documentPage } from './document-format';
import { DueBadge } from './PolicyHomePage';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

const TITLE = 'Policy dashboard';

/** The bulk screens, by action: the link text on the dashboard. */
export const BULK_LINKS: Record<BulkAction, string> = {
  sign: 'Sign policies',
  'send-to-sign': 'Send policies for review and signature',
  read: 'Read and attest policies',
  'new-version': 'Start new versions',
};

/**
 * /app/policy_management/{projectId}/admin-dashboard (policy administrators): where the policies stand, the
 * revisions in progress, the administrator's own tasks, the periodic reviews due, how far each department has read
 * its policies, the recent activity, the workflow settings and the bulk screens.
 */
export function PolicyDashboardPage() {
  usePageTitle(TITLE);
  const projectId = usePolicyProjectId();
  const dashboard = useDashboard(projectId);

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title={TITLE}>
        Where the policies stand, the reviews coming due, who has read what, and how the workflow runs.
      </PageHeading>
      <QueryBody
        query={dashboard}
        fallback="The dashboard could not be loaded. Please try again."
        loadingLabel="Loading the dashboard"
        loading={
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" role="status" aria-label="Loading the dashboard">
            {[0, 1, 2, 3].map((index) => (
              <Skeleton key={index} height={200} radius="md" />
            ))}
          </SimpleGrid>
        }
      >
        {(data) => <DashboardCards projectId={projectId} dashboard={data} />}
      </QueryBody>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <WorkflowSettingsCard projectId={projectId} />
        <BulkLinksCard projectId={projectId} />
      </SimpleGrid>
    </Stack>
  );
}

/** A dashboard card, found by its title in tests. */
function Card({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <SectionCard title={title} action={action} cardName={title}>
      {children}
    </SectionCard>
  );
}

/** One number with its label. */
function Count({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={2} data-count={label}>
      <Text fz="h3" fw={700} lh={1.1}>
        {value.toLocaleString('en-US')}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

function DashboardCards({ projectId, dashboard }: { projectId: string; dashboard: PolicyDashboard }) {
  const { revisions, my_tasks: tasks } = dashboard;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card title="Policies by status">
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Policies by status">
            {DOCUMENT_STATUSES.map((status) => (
              <Group component="li" key={status} justify="space-between" gap="sm" data-status={status}>
                <Anchor component={Link} to={policyRoute(projectId, `documents/status/${status}`)} size="sm">
                  <StatusBadge status={status} />
                </Anchor>
                <Text fw={600}>{(dashboard.by_status[status] ?? 0).toLocaleString('en-US')}</Text>
              </Group>
            ))}
          </Stack>
          <Stack gap={4}>
            <Title order={3} fz="sm" fw={700}>
              Revisions in progress
            </Title>
            <Text size="sm" c="dimmed">
              Published policies with a new version on its way; readers keep the current one meanwhile.
            </Text>
            <SimpleGrid cols={3} spacing="sm" aria-label="Revisions in progress">
              <Count label="Draft" value={revisions.draft} />
              <Count label="In review" value={revisions.in_review} />
              <Count label="Pending signature" value={revisions.pending_signature} />
            </SimpleGrid>
          </Stack>
        </Card>
        <Card
          title="My tasks"
          action={
            <Anchor component={Link} to={policyRoute(projectId)} size="sm">
              Open my tasks
            </Anchor>
          }
        >
          <SimpleGrid cols={2} spacing="md">
            <Count label="To review" value={tasks.to_review} />
            <Count label="To sign" value={tasks.to_sign} />
            <Count label="To read" value={tasks.to_read} />
            <Count label="Sent back to you" value={tasks.sent_back} />
          </SimpleGrid>
        </Card>
      </SimpleGrid>

      <Card title="Reviews due">
        <Group gap="xl">
          <Count label="Overdue" value={dashboard.overdue_count} />
          <Count label={`Due within ${REVIEW_DUE_SOON_DAYS} days`} value={dashboard.due_soon_count} />
        </Group>
        {dashboard.overdue_count === 0 && dashboard.due_soon_count === 0 ? (
          <Text size="sm" c="dimmed">
            No periodic review is overdue or due soon.
          </Text>
        ) : (
          <>
            <ReviewTable
              projectId={projectId}
              title="Overdue"
              reviews={dashboard.overdue_reviews}
              total={dashboard.overdue_count}
            />
            <ReviewTable
              projectId={projectId}
              title="Due soon"
              reviews={dashboard.due_soon_reviews}
              total={dashboard.due_soon_count}
            />
          </>
        )}
      </Card>

      <BrokenReferencesCard projectId={projectId} references={dashboard.broken_references} />

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <AttestationCard dashboard={dashboard} />
        <ActivityCard projectId={projectId} dashboard={dashboard} />
      </SimpleGrid>
    </Stack>
  );
}

function ReviewTable({
  projectId,
  title,
  reviews,
  total,
}: {
  projectId: string;
  title: string;
  reviews: ReviewDue[];
  total: number;
}) {
  if (total === 0) return null;
  const sorted = [...reviews].sort((a, b) => a.days - b.days);
  return (
    <Stack gap="xs">
      <Title order={3} fz="sm" fw={700}>
        {title}
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" fz="sm" striped aria-label={`${title} reviews`}>
          <ColumnHeads columns={['Policy', 'Department', 'Owner', 'Review date', 'When']} />
          <Table.Tbody>
            {sorted.map((review) => (
              <Table.Tr key={review.id} data-review-id={review.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component={Link} to={documentPage(projectId, review.id)} size="sm">
                    {documentName(review)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{review.department?.name ?? '—'}</Table.Td>
                <Table.Td>{review.owner?.name ?? 'No owner'}</Table.Td>
                <Table.Td>{formatDay(review.next_review_on)}</Table.Td>
                <Table.Td>
                  <DueBadge days={review.days} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > reviews.length && (
        <Text size="xs" c="dimmed">
          Showing {reviews.length} of {total}.
        </Text>
      )}
    </Stack>
  );
}

function rateColor(rate: number): string {
  if (rate >= 0.9) return 'teal.8';
  if (rate >= 0.5) return 'yellow.7';
  return 'red.8';
}

function AttestationCard({ dashboard }: { dashboard: PolicyDashboard }) {
  const rows = [...dashboard.attestation].sort((a, b) => {
    if (!a.department) return 1;
    if (!b.department) return -1;
    return a.department.name.localeCompare(b.department.name);
  });
  return (
    <Card title="Reading by department">
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No department has published policies yet.
        </Text>
      ) : (
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Reading by department">
          {rows.map((row) => {
            const name = row.department ? `${row.department.name} (${row.department.code})` : 'No department';
            const rate = row.required === 0 ? null : (row.rate ?? row.attested / row.required);
            return (
              <Stack component="li" key={row.department?.id ?? 'none'} gap={4} data-department={name}>
                <Group justify="space-between" gap="sm" wrap="nowrap">
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {name}
                  </Text>
                  <Text size="sm" c={rate === null ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {rate === null
                      ? 'No readers'
                      : `${row.attested.toLocaleString('en-US')} of ${row.required.toLocaleString('en-US')} · ${formatPercent(rate, { digits: 0 })}`}
                  </Text>
                </Group>
                <Progress
                  value={rate === null ? 0 : rate * 100}
                  color={rate === null ? 'gray' : rateColor(rate)}
                  aria-label={
                    rate === null ? `${name}: no readers` : `${name}: ${formatPercent(rate, { digits: 0 })} read`
                  }
                />
              </Stack>
            );
          })}
        </Stack>
      )}
      <Text size="xs" c="dimmed">
        Attestations of the current version of each published policy, by the department's readers.
      </Text>
    </Card>
  );
}

function ActivityCard({ projectId, dashboard }: { projectId: string; dashboard: PolicyDashboard }) {
  return (
    <Card title="Recent activity">
      {dashboard.recent_activity.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing has happened yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" fz="sm" aria-label="Recent activity">
            <ColumnHeads columns={['When', 'Who', 'What', 'Policy']} />
            <Table.Tbody>
              {dashboard.recent_activity.map((item) => (
                <Table.Tr key={item.id} data-activity-id={item.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(item.at)}</Table.Td>
                  <Table.Td>{item.actor ?? 'The system'}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.summary}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {item.document ? (
                      <Anchor component={Link} to={documentPage(projectId, item.document.id)} size="sm">
                        {documentName(item.document)}
                      </Anchor>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

// ---------------------------------------------------------------- settings and bulk links

const SETTINGS_FIELDS = ['default_review_interval_months', 'signatures_required', 'allow_self_signing'] as const;
type SettingsField = (typeof SETTINGS_FIELDS)[number];

function WorkflowSettingsCard({ projectId }: { projectId: string }) {
  const settings = useWorkflowSettings(projectId);
  return (
    <Card title="Workflow settings">
      <QueryBody
        query={settings}
        fallback="The workflow settings could not be loaded. Please try again."
        loadingLabel="Loading the workflow settings"
        rows={3}
      >
        {/* A fresh form whenever the saved settings change. */}
        {(saved) => <SettingsForm key={JSON.stringify(saved)} projectId={projectId} saved={saved} />}
      </QueryBody>
    </Card>
  );
}

interface SettingsValues {
  default_review_interval_months: number | string;
  signatures_required: WorkflowSettings['signatures_required'];
  allow_self_signing: boolean;
}

function SettingsForm({ projectId, saved }: { projectId: string; saved: WorkflowSettings }) {
  const save = useSaveWorkflowSettings(projectId);
  const { values, errors, setErrors, failure, setFailure, change, refused } = useFormState<
    SettingsValues,
    SettingsField
  >(saved, SETTINGS_FIELDS);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(null);
    if (values.default_review_interval_months === '') {
      setErrors({ default_review_interval_months: 'Enter how many months pass between reviews.' });
      return;
    }
    const parsed = workflowSettingsSchema.safeParse({
      ...values,
      default_review_interval_months: Number(values.default_review_interval_months),
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<SettingsField>(parsed.error));
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast.success('Workflow settings saved.');
    } catch (error) {
      refused(error, 'The workflow settings could not be saved. Please try again.');
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <ErrorNotice message={failure} />
        <NumberInput
          label="Default review interval (months)"
          description="How often new policies are reviewed. Each policy can change its own in its settings."
          min={1}
          max={60}
          allowDecimal={false}
          allowNegative={false}
          value={values.default_review_interval_months}
          onChange={(value) => change('default_review_interval_months', value)}
          error={errors.default_review_interval_months}
          maw={320}
        />
        <Radio.Group
          label="Signatures needed to publish"
          value={values.signatures_required}
          onChange={(value) => change('signatures_required', value === 'one' ? 'one' : 'all')}
          error={errors.signatures_required}
        >
          <Stack gap="xs" mt={6}>
            <Radio value="all" label="Every signer" description="Each signer of the department who is asked signs." />
            <Radio value="one" label="One signer" description="The first signature publishes the version." />
          </Stack>
        </Radio.Group>
        <Switch
          label="Authors may sign their own versions"
          description="When off, the author of a version is never asked to sign it."
          checked={values.allow_self_signing}
          onChange={(event) => change('allow_self_signing', event.currentTarget.checked)}
          error={errors.allow_self_signing}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function BulkLinksCard({ projectId }: { projectId: string }) {
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  const allowed = BULK_ACTIONS.filter(
    (action) => permissions.data?.[permissionKey('policy_management', BULK_ACTION_SECTION[action])] === true,
  );
  if (allowed.length === 0) return null;
  return (
    <Card title="Bulk actions">
      <Text size="sm" c="dimmed">
        Act on many policies at once; each one succeeds or fails on its own.
      </Text>
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Bulk actions">
        {allowed.map((action) => (
          <li key={action}>
            <Anchor component={Link} to={policyRoute(projectId, BULK_ACTION_SECTION[action])}>
              {BULK_LINKS[action]}
            </Anchor>
          </li>
        ))}
      </Stack>
    </Card>
  );
}
