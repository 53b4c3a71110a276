import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageCard, PublicPage } from '../../../components/PublicPage';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The narrow card every sign-in screen sits in. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <PublicPage size="xs">
      <PageCard>
        <Stack gap="lg">
          <div>
            <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" mt={4}>
                {subtitle}
              </Text>
            )}
          </div>
          {children}
        </Stack>
      </PageCard>
      {footer && (
        <Text ta="center" size="sm" mt="md">
          {footer}
        </Text>
      )}
    </PublicPage>
  );
}
