import { Alert, NumberInput, type NumberInputProps, Paper, Stack, Text, Title } from '@mantine/core';
import { MAIN_ROLE_LABELS } from '@portal/shared';
import type { ComponentProps, ReactNode } from 'react';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { QueryBody } from '../../../components/page-parts';
import { Loading } from '../../../components/shared-parts/Loading';
import { useCrSettings } from '../api/settings';

export { Loading };

/** One query's data, its failure with a way to try again, or this app's spinner (named `loadingLabel`) while it loads. */
export function QueryPanel<T>(props: Omit<ComponentProps<typeof QueryBody<T>>, 'loading' | 'rows'>) {
  return <QueryBody {...props} loading={<Loading label={props.loadingLabel} />} />;
}

/** A list screen's table on its card: striped rows, scrolling sideways on narrow screens, under an optional h2. */
export function TableCard({
  title,
  note,
  ...table
}: ComponentProps<typeof ScrollTable> & { title?: string; note?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      {title && (
        <Title order={2} fz="h4" mb="sm">
          {title}
        </Title>
      )}
      <ScrollTable verticalSpacing="sm" striped {...table} />
      {note}
    </Paper>
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

/** A percentage field: 0 to 100, two decimals at most. */
export function PercentInput(props: NumberInputProps) {
  return <NumberInput min={0} max={100} decimalScale={2} {...props} />;
}

/** The chart review main roles as people read them (British "programme", as in the app's screens). */
export const CR_ROLE_LABELS: Record<string, string> = MAIN_ROLE_LABELS;

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
