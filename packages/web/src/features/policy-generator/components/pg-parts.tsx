import './policy-generator.css';
import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { OWNER_TITLE_LABELS, OWNER_TITLES, PROFILE_NAME_LABELS } from '@portal/shared';
import type { ReactNode } from 'react';

/** What the policy generator's screens share: routes, names of things, small display parts. */

export const PG_BASE = '/app/policy_generator';

/** Where a screen of the generator lives: /app/policy_generator/{path}. */
export function pgRoute(path = ''): string {
  return path ? `${PG_BASE}/${path}` : PG_BASE;
}

/** A generated policy in policy management. */
export function documentRoute(projectId: number, documentId: number): string {
  return `/app/policy_management/${projectId}/documents/${documentId}`;
}

/** A positive whole number from a route parameter, else null. */
export function idParam(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The profile's own fields, by their key in the profile form (the server may name these in `missing`). */
export const PROFILE_FIELD_LABELS: Record<string, string> = {
  legal_name: 'Legal name',
  short_name: 'Short name',
  address: 'Address',
  state: 'State',
  bed_count: 'Licensed beds',
  service_lines: 'Service lines',
  accreditors: 'Accreditors',
  default_review_interval_months: 'Review interval (months)',
  ...Object.fromEntries(OWNER_TITLES.map((t) => [`owner_titles.${t}`, `Title: ${OWNER_TITLE_LABELS[t].label}`])),
};

/** A profile field or profile name in words ('facility_name' -> 'Legal name'). */
export function profileLabel(name: string): string {
  return PROFILE_NAME_LABELS[name] ?? PROFILE_FIELD_LABELS[name] ?? name;
}

/** A name a template uses, in words: the variable's label, else the profile's name for it. */
export function nameLabel(name: string, variables: readonly { key: string; label: string }[]): string {
  return variables.find((v) => v.key === name)?.label ?? profileLabel(name);
}

/** The spinner shown while something loads, the same in every app; the screens import it from here. */
export { Loading } from '../../../components/shared-parts/Loading';

/** What a screen shows with nothing in it: the fact, what to do about it, and a way to do it. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="empty-state">
      <Stack gap="sm" align="flex-start">
        <Text fw={700}>{title}</Text>
        <Text c="dimmed">{children}</Text>
        {action}
      </Stack>
    </Paper>
  );
}

/** A section's h3 with the line under it that says what the section is for. */
export function SectionTitle({
  title,
  description,
  id,
  fz,
}: {
  title: string;
  description?: string;
  id?: string;
  fz: string;
}) {
  return (
    <Stack gap={2}>
      <Title order={3} fz={fz} id={id}>
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
    </Stack>
  );
}

/** A small badge of a fact; dark text on light tints keeps the contrast readable. */
export function FactBadge({
  tone,
  children,
}: {
  tone: 'good' | 'warn' | 'bad' | 'info' | 'plain';
  children: ReactNode;
}) {
  const color = { good: 'green.9', warn: 'orange.9', bad: 'red.9', info: 'blue.9', plain: 'gray.8' }[tone];
  return (
    <Badge variant="light" color={color} tt="none" fw={600} radius="sm">
      {children}
    </Badge>
  );
}
