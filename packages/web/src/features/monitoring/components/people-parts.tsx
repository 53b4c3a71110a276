import { Alert, Paper, Stack, Title } from '@mantine/core';
import type { MonitoringMainRole } from '@portal/shared';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api';

/** Pieces the people and permission screens of monitoring share (headings, cards, states, role guide). */

/** What each main role may do in monitoring (the guide on assign-main-role and create-user). */
export const MONITORING_ROLE_DESCRIPTIONS: Record<MonitoringMainRole, string> = {
  monitoring_admin: 'Everything, including the page tree, levels, users and permissions.',
  page_owner: 'Edits the pages they own and writes key insights.',
  data_entry: 'Imports data and answers data requests.',
  viewer: 'Reads pages and asks for data.',
};

export function peopleCount(count: number): string {
  return count === 1 ? '1 person' : `${count.toLocaleString('en-US')} people`;
}

/** A titled section (its h2 names it for assistive technology). */
export function PeopleCard({
  id,
  title,
  children,
  actions,
}: {
  id: string;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="h4" id={id}>
            {title}
          </Title>
          {actions}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/** An error to show above a form or list, closable. */
export function FailureAlert({ message, onClose }: { message: string | null; onClose: () => void }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={onClose}>
      {message}
    </Alert>
  );
}

/** The messages of a 400's `errors` whose keys match `pattern` (first group: the index), first message per index. */
export function indexedErrors(error: unknown, pattern: RegExp): Map<number, string> {
  const found = new Map<number, string>();
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return found;
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return found;
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    const match = pattern.exec(key);
    const first = Array.isArray(value) ? value[0] : value;
    if (match && typeof first === 'string' && first.trim()) {
      const index = Number(match[1]);
      if (!found.has(index)) found.set(index, first);
    }
  }
  return found;
}
