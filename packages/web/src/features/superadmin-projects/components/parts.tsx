import { Badge, Group, Paper, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { QueryFailure, SectionTitle } from '../../../components/page-parts';
import { TONE } from '../../../components/status-tones';
import { SLUG_MAX } from './project-helpers';

/** A project's status; never cut short when its table column is narrow (it read "ACT..." at 1440 px). */
export function ProjectStatusBadge({ active }: { active: boolean }) {
  return (
    <Badge variant="light" color={active ? TONE.done : TONE.neutral} size="sm" miw="max-content">
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}

/** A failed query: what went wrong and Retry (as on every administration screen), which fetches it again. */
export function QueryLoadError(props: Omit<ComponentProps<typeof QueryFailure>, 'retryLabel'>) {
  return <QueryFailure retryLabel="Retry" {...props} />;
}

interface SectionCardProps {
  title: string;
  description?: ReactNode;
  /** Buttons beside the title. */
  actions?: ReactNode;
  children: ReactNode;
}

/** One card of the project page: a level-2 heading naming a region, what it is for, and its content. */
export function SectionCard({ title, description, actions, children }: SectionCardProps) {
  const headingId = useId();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 220px' }}>
            <SectionTitle id={headingId} title={title} description={description} />
          </Stack>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** The Name and Slug inputs of a project, side by side (the new-project form and the details card). */
export function NameSlugFields({
  name,
  slug,
  errors,
  onName,
  onSlug,
  autoFocus = false,
}: {
  name: string;
  slug: string;
  errors: { name?: string; slug?: string };
  onName: (name: string) => void;
  onSlug: (slug: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput
        label="Name"
        name="name"
        required
        maxLength={120}
        value={name}
        onChange={(event) => onName(event.currentTarget.value)}
        error={errors.name}
        data-autofocus={autoFocus || undefined}
      />
      <TextInput
        label="Slug"
        name="slug"
        required
        maxLength={SLUG_MAX}
        description="Letters, digits, underscores or hyphens, up to 50."
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={slug}
        onChange={(event) => onSlug(event.currentTarget.value)}
        error={errors.slug}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
      />
    </SimpleGrid>
  );
}
