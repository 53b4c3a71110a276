import { Anchor, Box, Container, Group, type MantineSize, Paper, type PaperProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../lib/product';
import { BrandMark } from './BrandMark';

interface PublicPageProps {
  children: ReactNode;
  size?: MantineSize;
  /** The home page names the product in its own heading, so it leaves the header out. */
  withHeader?: boolean;
}

/** Frame of the public (signed-out) screens: a light page with one centred column inside the `main` landmark. */
export function PublicPage({ children, size = 'sm', withHeader = true }: PublicPageProps) {
  return (
    <Box mih="100dvh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
      {withHeader && (
        <Box component="header" py="md" px={{ base: 'sm', sm: 'md' }}>
          <Container size={size} px={0}>
            <Anchor component={Link} to="/" c="gray.9" underline="hover" fw={700} display="inline-block">
              <Group gap="xs" wrap="nowrap">
                <BrandMark size={28} />
                <Text span inherit>
                  {PRODUCT_NAME}
                </Text>
              </Group>
            </Anchor>
          </Container>
        </Box>
      )}
      <Box
        component="main"
        px={{ base: 'sm', sm: 'md' }}
        pt={withHeader ? 0 : 'xl'}
        pb="xl"
        style={{ flex: 1, display: 'flex', alignItems: 'center' }}
      >
        <Container size={size} w="100%" px={0}>
          {children}
        </Container>
      </Box>
    </Box>
  );
}

/** The white card that holds a public screen's content. */
export function PageCard(props: PaperProps & { children: ReactNode }) {
  return <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} {...props} />;
}
