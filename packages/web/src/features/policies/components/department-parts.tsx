import { Alert, Anchor, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { formatPercent } from '@portal/shared';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api';
import { departmentOptions } from './browse-ui';
import { policyRoute } from './use-policy-project';

/** Pieces shared by the department screens: reviewers, signers, readers, health and attestation reports. */

export const MISSING_DEPARTMENT = 'This department does not exist (it may have been deleted).';
export const NO_DEPARTMENTS = 'No departments yet.';

/** A route's department id: a number of 1 to 10 digits, or null for anything else. */
export function departmentIdParam(value: string | undefined): number | null {
  return value && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The departments in tree order (sub-departments under their parent, names A to Z), each with its depth. */
export function inTreeOrder<T extends { id: number; name: string; parent_id: number | null }>(
  departments: readonly T[],
): { department: T; depth: number }[] {
  const byId = new Map(departments.map((department) => [String(department.id), department]));
  return departmentOptions(departments).flatMap(({ value, depth }) => {
    const department = byId.get(value);
    return department ? [{ department, depth }] : [];
  });
}

/** The left padding of a table cell holding a department `depth` levels down. */
export function nestedCellStyle(depth: number) {
  return { paddingLeft: `calc(var(--table-horizontal-spacing, 0.75rem) + ${depth * 1.25}rem)` };
}

/** A department's name (a link when `to` is given) with its code beside it. */
export function DepartmentLabel({ name, code, to }: { name: string; code: string; to?: string }) {
  return (
    <Group gap={6} wrap="wrap" component="span">
      {to ? (
        <Anchor component={Link} to={to} fw={600} size="sm">
          {name}
        </Anchor>
      ) : (
        <Text span fw={600} size="sm">
          {name}
        </Text>
      )}
      <Text span ff="monospace" size="xs" c="dimmed">
        {code}
      </Text>
    </Group>
  );
}

/** Percent of a 0-1 rate, whole numbers ('67%', the shared percent format). */
export function percent(rate: number): string {
  return formatPercent(rate, { digits: 0 });
}

export function rateColor(rate: number): string {
  if (rate >= 0.9) return 'teal.8';
  if (rate >= 0.5) return 'yellow.7';
  return 'red.8';
}

/** "7 of 9" with a bar; "Nothing to read" while nothing is required. */
export function AttestationBar({
  attested,
  required,
  rate,
  label,
}: {
  attested: number;
  required: number;
  rate: number | null;
  /** What the bar is about, for screen readers ("Nursing"). */
  label: string;
}) {
  if (required === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing to read
      </Text>
    );
  }
  const value = rate ?? attested / required;
  return (
    <Stack gap={4} miw={120}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {attested.toLocaleString('en-US')} of {required.toLocaleString('en-US')} · {percent(value)}
      </Text>
      <Progress value={value * 100} color={rateColor(value)} aria-label={`${label}: ${percent(value)} attested`} />
    </Stack>
  );
}

/** What a department list shows while there are none, with the way to add one for those who may. */
export function NoDepartments({ projectId, mayAdd }: { projectId: string; mayAdd: boolean }) {
  return (
    <Stack gap="xs" align="flex-start">
      <Text>{NO_DEPARTMENTS}</Text>
      {mayAdd && (
        <Anchor component={Link} to={policyRoute(projectId, 'insert-department')} underline="always">
          Add a department
        </Anchor>
      )}
    </Stack>
  );
}

/** A titled card: a section named by its h2. */
export function SectionCard({
  title,
  children,
  action,
  cardName,
}: {
  title: ReactNode;
  children: ReactNode;
  action?: ReactNode;
  /** Names the card in its data-card attribute, for tests to find it by. */
  cardName?: string;
}) {
  const headingId = useId();
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby={headingId}
      miw={0}
      data-card={cardName}
    >
      <Stack gap="md">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Title order={2} fz="h4" id={headingId}>
            {title}
          </Title>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** An unknown department: say so and offer the way back. */
export function MissingDepartment({ back, backLabel }: { back: string; backLabel: string }) {
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="yellow" variant="light" role="alert" w="100%" title="Department not found">
        {MISSING_DEPARTMENT}
      </Alert>
      <Anchor component={Link} to={back}>
        {backLabel}
      </Anchor>
    </Stack>
  );
}
