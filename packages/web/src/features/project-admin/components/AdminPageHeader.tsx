import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useProject } from '../../../lib/project/get-project';
import { useIsSuperadmin } from '../../../lib/project/project-context';

interface AdminPageHeaderProps {
  projectId: string;
  title: string;
  /** Buttons shown beside the title (below it on a phone). */
  actions?: ReactNode;
}

/** The page's one h1 with the project's name under it. */
export function AdminPageHeader({ projectId, title, actions }: AdminPageHeaderProps) {
  const superadmin = useIsSuperadmin();
  const project = useProject(projectId, superadmin);
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {title}
        </Title>
        {project.data ? (
          <Text c="dimmed" data-testid="project-name" style={{ overflowWrap: 'anywhere' }}>
            {project.data.name}
          </Text>
        ) : (
          project.isPending && <Skeleton height={20} width={180} aria-hidden="true" />
        )}
      </Stack>
      {actions}
    </Group>
  );
}

/** A bordered section of an admin page under its h2 (`id` names it for screen readers). */
export function AdminSection({
  id,
  title,
  gap = 'md',
  children,
}: {
  id: string;
  title: string;
  gap?: 'sm' | 'md';
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap={gap}>
        <Title order={2} fz="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
