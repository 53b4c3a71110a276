import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AccountCardProps {
  /** The heading's id: forms and tables inside name themselves by it. */
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** One section of My Account: a bordered card with a level-2 heading. */
export function AccountCard({ id, title, description, children }: AccountCardProps) {
  return (
    <Paper component="section" withBorder radius="md" p={{ base: 'md', sm: 'lg' }} aria-labelledby={id}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="h4" id={id}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
