import { Alert, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useCrSettings } from '../api/settings';

/** A load in progress: a spinner people using a screen reader hear as `label`; the height keeps the page still. */
export function Loading({ label }: { label: string }) {
  return (
    <Center py="xl" mih={160} role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}

/** What a list shows with nothing in it: the fact, what the thing is for, and the way to make the first one. */
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

/** The chart review main roles as people read them (British "programme", as in the app's screens). */
export const CR_ROLE_LABELS: Record<string, string> = {
  chart_review_admin: 'Chart review admin',
  program_lead: 'Programme lead',
  reviewer: 'Reviewer',
  viewer: 'Viewer',
};

/** A positive whole number from a route or query parameter, else null. */
export function idParam(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/** The project's privilege label ("Confidential"), on every screen with chart review work product. */
export function PrivilegeBanner({ label }: { label: string }) {
  return (
    <Alert color="gray" variant="light" title="Confidential" role="note" aria-label="Privilege notice">
      {label}
    </Alert>
  );
}

/** The privilege banner of a screen whose own answer does not carry the label: read from the settings. */
export function ProjectPrivilegeBanner({ projectId }: { projectId: string }) {
  const settings = useCrSettings(projectId);
  return settings.data ? <PrivilegeBanner label={settings.data.privilege_label} /> : null;
}
