import { Stack, type StackProps, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One section of a tool's questions under its title; questions without a section sit under "No section". */
export function QuestionSection({
  section,
  gap,
  children,
}: {
  section: string;
  gap: StackProps['gap'];
  children: ReactNode;
}) {
  const name = section || 'No section';
  return (
    <Stack gap={gap} component="section" aria-label={name}>
      <Title order={3} fz="h4">
        {name}
      </Title>
      {children}
    </Stack>
  );
}
