import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  documentName,
  type PolicySection,
  permissionKey,
  REVIEW_DUE_SOON_DAYS,
  type ReviewDue,
  type Task,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { formatDate, formatDay } from '../../../lib/dates';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { usePageTitle } from '../../../lib/use-page-title';
import { type MyTasks, useMyTasks } from '../api/get-my-tasks';
import { documentPage } from './document-format';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

export const NOTHING_WAITS = 'Nothing waits for you.';
const TITLE = 'My tasks';

/** 'Overdue by 3 days', 'Due today', 'Due in 12 days'. */
export function dueLabel(days: number): string {
  if (days < 0) return `Overdue by ${-days} ${days === -1 ? 'day' : 'days'}`;
  if (days === 0) return 'Due today';
  return `Due in ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** A review due as a badge: overdue in red, due soon in orange (dark text on the tint, for contrast). */
export function DueBadge({ days }: { days: number }) {
  return (
    <Badge color={days < 0 ? 'red' : 'orange'} variant="light" c={days < 0 ? 'red.9' : 'dark.8'} radius="sm">
      {dueLabel(days)}
    </Badge>
  );
}

/**
 * /app/policy_management/{projectId}: the app's entry page, "My tasks". What waits for the signed-in member: policies
 * to review, to sign and to read, their drafts sent back, and the periodic reviews of the policies they own; with
 * the bulk screens when there are several and the permission map allows them.
 */
export function PolicyHomePage() {
  usePageTitle(TITLE);
  const projectId = usePolicyProjectId();
  const tasks = useMyTasks(projectId);

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        Policies waiting for your review, signature or reading, drafts sent back to you, and reviews coming due.
      </PageHeading>
      <QueryBody
        query={tasks}
        fallback="Your tasks could not be loaded. Please try again."
        loadingLabel="Loading your tasks"
        rows={5}
      >
        {(data) => <TaskLists projectId={projectId} tasks={data} />}
      </QueryBody>
    </Stack>
  );
}

function TaskLists({ projectId, tasks }: { projectId: string; tasks: MyTasks }) {
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  const may = (section: PolicySection) => permissions.data?.[permissionKey('policy_management', section)] === true;
  const total =
    tasks.to_review.length +
    tasks.to_sign.length +
    tasks.to_read.length +
    tasks.sent_back.length +
    tasks.reviews_due.length;

  if (total === 0) {
    return (
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs" align="flex-start">
          <Text fw={600}>{NOTHING_WAITS}</Text>
          <Text size="sm" c="dimmed">
            When a policy needs your review, signature or reading, it appears here.
          </Text>
          <Anchor component={Link} to={policyRoute(projectId, 'toc')}>
            Open the table of contents
          </Anchor>
        </Stack>
      </Paper>
    );
  }

  // Reviewers and signers read the version they were asked about, not the one in force.
  const working = (task: Task) => documentPage(projectId, task.id, { version: String(task.version_id) });
  const plain = (task: Task) => documentPage(projectId, task.id);

  return (
    <Stack gap="lg">
      <TaskSection title="To review" tasks={tasks.to_review} linkTo={working} since="Waiting since" />
      <TaskSection
        title="To sign"
        tasks={tasks.to_sign}
        linkTo={working}
        since="Waiting since"
        bulk={
          tasks.to_sign.length >= 2 && may('bulk-sign')
            ? { label: 'Sign all', to: policyRoute(projectId, 'bulk-sign') }
            : undefined
        }
      />
      <TaskSection
        title="To read"
        tasks={tasks.to_read}
        linkTo={plain}
        since="Published"
        bulk={
          tasks.to_read.length >= 2 && may('bulk-read')
            ? { label: 'Read all', to: policyRoute(projectId, 'bulk-read') }
            : undefined
        }
      />
      <TaskSection title="Sent back to you" tasks={tasks.sent_back} linkTo={plain} since="Sent back" />
      {tasks.reviews_due.length > 0 && <ReviewsDueSection projectId={projectId} reviews={tasks.reviews_due} />}
    </Stack>
  );
}

function Section({
  title,
  count,
  action,
  children,
}: {
  title: string;
  count: number;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby={headingId}
      data-section={title}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap="xs">
            <Title order={2} fz="h4" id={headingId}>
              {title}
            </Title>
            <Badge variant="light" color={count > 0 ? 'blue' : 'gray'} c="dark.8" radius="sm" aria-hidden>
              {count}
            </Badge>
          </Group>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

function TaskSection({
  title,
  tasks,
  linkTo,
  since,
  bulk,
}: {
  title: string;
  tasks: Task[];
  linkTo: (task: Task) => string;
  since: string;
  bulk?: { label: string; to: string };
}) {
  if (tasks.length === 0) return null;
  const sorted = [...tasks].sort((a, b) => a.since.localeCompare(b.since));
  return (
    <Section
      title={title}
      count={tasks.length}
      action={
        bulk && (
          <Button component={Link} to={bulk.to} variant="light" size="sm">
            {bulk.label}
          </Button>
        )
      }
    >
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={title}>
        {sorted.map((task) => (
          <Stack component="li" key={`${task.id}-${task.version_id}`} gap={2} data-task-id={task.id}>
            <Group gap="xs" wrap="nowrap" align="baseline">
              <Anchor component={Link} to={linkTo(task)} fw={600} style={{ overflowWrap: 'anywhere' }}>
                {documentName(task)}
              </Anchor>
              {task.overdue && (
                <Badge color="red.9" variant="filled" style={{ flexShrink: 0 }}>
                  Overdue
                </Badge>
              )}
            </Group>
            <Text size="sm" c={task.overdue ? 'red.9' : 'dimmed'}>
              {[
                task.department?.name,
                `Version ${task.version}`,
                `${since} ${formatDate(task.since)}`,
                task.due_on && `${task.overdue ? 'Was due' : 'Read by'} ${formatDay(task.due_on)}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            {task.comment && (
              <Text
                size="sm"
                pl="sm"
                style={{
                  borderLeft: '3px solid var(--mantine-color-orange-4)',
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                }}
              >
                {task.comment}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    </Section>
  );
}

function ReviewsDueSection({ projectId, reviews }: { projectId: string; reviews: ReviewDue[] }) {
  // Most overdue first, then the ones due soonest.
  const sorted = [...reviews].sort((a, b) => a.days - b.days || a.title.localeCompare(b.title));
  const overdue = reviews.filter((review) => review.days < 0).length;
  return (
    <Section title="Reviews due" count={reviews.length}>
      <Text size="sm" c="dimmed">
        {overdue > 0
          ? `${overdue} of your policies ${overdue === 1 ? 'is' : 'are'} past the review date. Review ${overdue === 1 ? 'it' : 'them'} and start a new version if the text must change.`
          : `Policies you own whose periodic review comes up within ${REVIEW_DUE_SOON_DAYS} days.`}
      </Text>
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Reviews due">
        {sorted.map((review) => (
          <Stack component="li" key={review.id} gap={2} data-review-id={review.id} data-days={review.days}>
            <Group gap="xs" wrap="wrap">
              <Anchor
                component={Link}
                to={documentPage(projectId, review.id)}
                fw={600}
                style={{ overflowWrap: 'anywhere' }}
              >
                {documentName(review)}
              </Anchor>
              <DueBadge days={review.days} />
            </Group>
            <Text size="sm" c="dimmed">
              {[review.department?.name, `Review date ${formatDay(review.next_review_on)}`].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
        ))}
      </Stack>
    </Section>
  );
}
