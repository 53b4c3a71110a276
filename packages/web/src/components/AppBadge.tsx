import { Badge } from '@mantine/core';
import type { AppCode } from '@portal/shared';
import { APP_INFO } from '../lib/apps';

export function AppBadge({ app }: { app: AppCode }) {
  return (
    <Badge variant="light" color="blue.8" size="sm" tt="none">
      {APP_INFO[app].name}
    </Badge>
  );
}
