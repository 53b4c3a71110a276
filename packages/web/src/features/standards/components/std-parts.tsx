import { Badge, Button, Group, Paper, Stack, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { ACCESS_DENIED, type StdCounts, type StdRollup } from '@portal/shared';
import type { CSSProperties, ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { formatDayLong } from '../../../lib/dates';
import { useCurrentProject } from '../../../lib/project/project-context';
import { type StdAssessment, useStdAssessments } from '../api/assessments';
import { countsText, RESULT_COLORS, ROLLUP_LABELS } from './std-words';

/** The project of the standards app's route; the app renders its screens only once the project is known. */
export function useStdProjectId(): string {
  const { projectId } = useCurrentProject();
  if (!projectId) throw new Error('The standards screens render only inside a project (StandardsApp).');
  return projectId;
}

/** Where a standards screen lives: /app/standards/{projectId}/{path}. */
export function standardsRoute(projectId: string, path = ''): string {
  return `/app/standards/${projectId}${path ? `/${path}` : ''}`;
}

/** A positive whole number from a route or query parameter, else null. */
export function idParam(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/** The assessment `?assessment=` names, else the newest one; null when the project has none. */
export function pickAssessment(assessments: readonly StdAssessment[], param: string | null): StdAssessment | null {
  const wanted = idParam(param);
  const named = wanted === null ? undefined : assessments.find((item) => item.id === wanted);
  if (named) return named;
  return newest(assessments);
}

function newest(assessments: readonly StdAssessment[]): StdAssessment | null {
  let best: StdAssessment | null = null;
  for (const item of assessments) {
    if (!best || item.created_at > best.created_at || (item.created_at === best.created_at && item.id > best.id))
      best = item;
  }
  return best;
}

/** The spinner shown while something loads, the same in every app; the screens import it from here. */
export { Loading } from '../../../components/shared-parts/Loading';

/** What a screen shows with nothing in it: the fact, what the thing is for, and the way to make the first one. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="sm" align="flex-start">
        <Text fw={700}>{title}</Text>
        <Text c="dimmed">{children}</Text>
        {action}
      </Stack>
    </Paper>
  );
}

/**
 * A result chip. With `counts` (a chapter or standard), the counts of the elements below it show in a tooltip
 * and are read out by screen readers.
 */
export function ResultBadge({ result, counts }: { result: StdRollup; counts?: StdCounts }) {
  const color = RESULT_COLORS[result];
  const badge = (
    <Badge
      variant={result === 'not_assessed' ? 'outline' : 'light'}
      color={result === 'not_assessed' ? 'gray.7' : `${color}.9`}
      tt="none"
      fw={600}
      tabIndex={counts ? 0 : undefined}
      style={{ whiteSpace: 'nowrap' }}
    >
      {ROLLUP_LABELS[result]}
      {counts && <VisuallyHidden>: {countsText(counts)}</VisuallyHidden>}
    </Badge>
  );
  if (!counts) return badge;
  return (
    <Tooltip label={countsText(counts)} withArrow>
      {badge}
    </Tooltip>
  );
}

export function OverdueBadge() {
  return (
    <Badge color="red.9" variant="filled" tt="none">
      Overdue
    </Badge>
  );
}

/**
 * A paragraph with a later effective date: in force from that day, and not counted in readiness before it.
 */
export function InForceBadge({ day }: { day: string }) {
  return (
    <Badge color="gray" variant="light" tt="none" ml={6} title="Not counted in readiness before this day">
      In force from {formatDayLong(day)}
    </Badge>
  );
}

/** A small badge of a fact ('Approved', 'Evidence expired'); `tone` picks its colour. */
export function FactBadge({ tone, children }: { tone: 'good' | 'bad' | 'warn' | 'plain'; children: ReactNode }) {
  const color = { good: 'green', bad: 'red', warn: 'orange', plain: 'gray' }[tone];
  return (
    <Badge variant="light" color={`${color}.9`} tt="none" fw={600}>
      {children}
    </Badge>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={640} role="alert" aria-label={title}>
      <Stack gap="sm" align="flex-start">
        <Title order={1} fz="h2" c="red.9">
          {title}
        </Title>
        {children}
        <Button component={Link} to="/member/projects" mt="xs">
          Back to Dashboard
        </Button>
      </Stack>
    </Paper>
  );
}

export const STD_UNCONFIGURED =
  'You do not have access to standards features yet. Contact an administrator to assign you a standards role.';

/**
 * The Access Denied panel of SPEC section 2 for the standards app: the server's reason (403 from GET /me), the
 * user's role, and who can grant one (the "unconfigured" case: no standards role).
 */
export function StdAccessDenied({ reason, role }: { reason: string | null; role?: string | null }) {
  return (
    <Panel title={ACCESS_DENIED.title}>
      <Text data-testid="access-denied-reason">{reason || STD_UNCONFIGURED}</Text>
      <Text size="sm">
        Your role: <strong>{role ?? 'No role assigned'}</strong>
      </Text>
      <Text size="sm">A standards admin or a project admin can give you a standards role in Manage users.</Text>
    </Panel>
  );
}

/** GET /me answered 404: the project is not the user's, or the Standards app is off for it. */
export function StdUnavailable() {
  return (
    <Panel title="Standards is not available">
      <Text>
        Standards is not switched on for this project, or the project is not one of yours. A superadmin can switch the
        app on in the project settings.
      </Text>
    </Panel>
  );
}

/** A small line icon, hidden from assistive technology (the text beside it says what it means). */
export function Icon({
  children,
  strokeWidth = '2',
  style,
}: {
  children: ReactNode;
  strokeWidth?: string;
  style?: CSSProperties;
}) {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      style={style}
    >
      {children}
    </svg>
  );
}

export const PolicyIcon = () => (
  <Icon>
    <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z" />
    <path d="M14 3v6h6M8 13h8M8 17h5" />
  </Icon>
);

export const MeasureIcon = () => (
  <Icon>
    <path d="M4 19h16M5 15l4-5 4 3 6-8" />
  </Icon>
);

export const AuditIcon = () => (
  <Icon>
    <path d="M9 4h6v3H9zM7 5H5v16h14V5h-2" />
    <path d="M9 13l2 2 4-4" />
  </Icon>
);

/** The counts of an element's linked policies, measures and audits, as icons with numbers. */
export function LinkCounts({ links }: { links: { policy: number; measure: number; cr_program: number } }) {
  const label = `${links.policy} linked ${links.policy === 1 ? 'policy' : 'policies'}, ${links.measure} ${
    links.measure === 1 ? 'measure' : 'measures'
  }, ${links.cr_program} ${links.cr_program === 1 ? 'audit' : 'audits'}`;
  const item = (count: number, icon: ReactNode, name: string) => (
    <Group gap={2} wrap="nowrap" c={count > 0 ? 'blue.9' : 'gray.7'} title={name}>
      {icon}
      <Text size="xs" fw={600} c="inherit">
        {count}
      </Text>
    </Group>
  );
  return (
    <Group gap={8} wrap="nowrap" role="img" aria-label={label}>
      {item(links.policy, <PolicyIcon />, 'Policies')}
      {item(links.measure, <MeasureIcon />, 'Measures')}
      {item(links.cr_program, <AuditIcon />, 'Audits')}
    </Group>
  );
}

/**
 * A screen about one assessment (Compliance, Readiness): its heading, then the assessments loading or failing, `empty`
 * while there are none, else `children` with them and the one picked by `?assessment=` (the newest by default).
 */
export function AssessmentScreen({
  title,
  intro,
  projectId,
  empty,
  children,
}: {
  title: string;
  intro: string;
  projectId: string;
  empty: ReactNode;
  children: (assessments: readonly StdAssessment[], current: StdAssessment) => ReactNode;
}) {
  return (
    <Stack gap="lg">
      <PageHeading title={title}>{intro}</PageHeading>
      <PickedAssessment projectId={projectId} empty={empty}>
        {children}
      </PickedAssessment>
    </Stack>
  );
}

function PickedAssessment({
  projectId,
  empty,
  children,
}: {
  projectId: string;
  empty: ReactNode;
  children: (assessments: readonly StdAssessment[], current: StdAssessment) => ReactNode;
}) {
  const assessments = useStdAssessments(projectId);
  const [params] = useSearchParams();
  return (
    <QueryBody
      query={assessments}
      fallback="The assessments could not be loaded. Please try again."
      loadingLabel="Loading the assessments"
      rows={6}
    >
      {(data) => {
        const current = pickAssessment(data.assessments, params.get('assessment'));
        return current ? children(data.assessments, current) : empty;
      }}
    </QueryBody>
  );
}
