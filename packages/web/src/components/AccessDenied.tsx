import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { ACCESS_DENIED, type AccessReason, type PermissionApp } from '@portal/shared';
import { Link } from 'react-router';
import { roleLabel } from '../lib/role-labels';

export const PERMISSION_MATRIX_NOTE = 'An administrator can grant access in the Permission Matrix.';
export const ASSIGN_MAIN_ROLE_NOTE = 'An administrator must assign you a main role before you can use this app.';

/** The reason text of SPEC section 6 for a denial in `app` ('Access denied.' for an unknown reason). */
export function accessDeniedText(app: PermissionApp, reason: AccessReason | undefined): string {
  switch (reason) {
    case 'forbidden':
      return ACCESS_DENIED.forbidden;
    case 'unconfigured':
      return ACCESS_DENIED.unconfigured[app];
    case 'roleUnavailable':
      return ACCESS_DENIED.roleUnavailable[app];
    default:
      return ACCESS_DENIED.unknown;
  }
}

interface AccessDeniedProps {
  app: PermissionApp;
  reason: AccessReason | undefined;
  /** The user's role in the app; null when they have none or it is unknown. */
  userRole: string | null;
}

/** The Access Denied panel of SPEC section 2. */
export function AccessDenied({ app, reason, userRole }: AccessDeniedProps) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'xl' }}
      maw={640}
      role="alert"
      aria-labelledby="access-denied-title"
    >
      <Stack gap="sm" align="flex-start">
        <Title order={1} fz="h2" c="red.8" id="access-denied-title">
          {ACCESS_DENIED.title}
        </Title>
        <Text data-testid="access-denied-reason">{accessDeniedText(app, reason)}</Text>
        <Text size="sm">
          Your role: <strong>{userRole ? roleLabel(userRole) : 'No role assigned'}</strong>
        </Text>
        {reason === 'unconfigured' && <Text size="sm">{ASSIGN_MAIN_ROLE_NOTE}</Text>}
        <Text size="sm" c="dimmed">
          {PERMISSION_MATRIX_NOTE}
        </Text>
        <Button component={Link} to="/member/projects" mt="xs">
          Back to Dashboard
        </Button>
      </Stack>
    </Paper>
  );
}
