import './guest-reader.css';
import { Alert, Anchor, Box, Button, Container, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LOGIN_PATH } from '../../../lib/session';

export const UNAVAILABLE_TEXT = 'Reading without an account is not available here. Sign in to read the policies.';

/** Where the sign-in link leads: the sign-in page, then the same policies in the signed-in app. */
export function signInPath(projectId: string, documentId?: string): string {
  const app = `/app/policy_management/${projectId}${documentId ? `/documents/${documentId}` : ''}`;
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: app })}`;
}

interface GuestFrameProps {
  projectId: string;
  /** The project's name once known (the header's link back to the reader's home). */
  projectName?: string;
  documentId?: string;
  children: ReactNode;
}

/**
 * The guest reader's frame, outside the signed-in layout: one thin line (the project, a "Sign in" link for staff)
 * so that on a phone the policy starts in the first screen.
 */
export function GuestFrame({ projectId, projectName, documentId, children }: GuestFrameProps) {
  return (
    <Box mih="100dvh">
      <Box component="header" className="guest-reader-no-print" py={6} px="sm" bg="gray.0">
        <Container size="md" px={0}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Anchor
              component={Link}
              to={`/read/${projectId}`}
              fw={600}
              c="gray.9"
              truncate="end"
              style={{ minWidth: 0 }}
            >
              {projectName ?? 'Policies'}
            </Anchor>
            <Anchor component={Link} to={signInPath(projectId, documentId)} size="sm" style={{ flexShrink: 0 }}>
              Sign in
            </Anchor>
          </Group>
        </Container>
      </Box>
      <Box component="main" px="sm" py="sm">
        <Container size="md" px={0}>
          {children}
        </Container>
      </Box>
    </Box>
  );
}

/** What a guest sees when the server answers 404: the same words whatever the reason. */
export function GuestUnavailable({ projectId, documentId }: { projectId: string; documentId?: string }) {
  return (
    <Stack gap="sm" align="flex-start" maw={560}>
      <Alert color="blue" variant="light" w="100%">
        <Text>{UNAVAILABLE_TEXT}</Text>
      </Alert>
      <Button component={Link} to={signInPath(projectId, documentId)}>
        Sign in
      </Button>
    </Stack>
  );
}
