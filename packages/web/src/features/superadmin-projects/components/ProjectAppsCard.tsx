import { Button, Checkbox, Group, SimpleGrid, Stack } from '@mantine/core';
import { APP_CODES, type AppCode } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import type { SuperProjectDetail } from '../api/get-project';
import { useUpdateSuperProject } from '../api/update-project';
import { SectionCard } from './parts';
import { APP_OPTIONS, NO_CHANGES } from './project-helpers';

function sameApps(a: readonly AppCode[], b: readonly AppCode[]): boolean {
  return a.length === b.length && a.every((app) => b.includes(app));
}

/** Which apps the project's members see. */
export function ProjectAppsCard({ project }: { project: SuperProjectDetail }) {
  const update = useUpdateSuperProject(String(project.id));
  const [apps, setApps] = useState<AppCode[]>(project.active_apps);
  const [error, setError] = useState<string | undefined>();
  const dirty = !sameApps(apps, project.active_apps);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    if (!dirty) {
      toast.info(NO_CHANGES);
      return;
    }
    setError(undefined);
    try {
      await update.mutateAsync({ active_apps: APP_CODES.filter((code) => apps.includes(code)) });
      toast.success('Active apps saved.');
    } catch (failed) {
      const field = serverFieldErrors(failed, ['active_apps'] as const).active_apps;
      if (field) setError(field);
      else toast.error(messageFor(failed, 'The apps could not be saved. Please try again.'));
    }
  }

  return (
    <SectionCard title="Apps" description="Members see only the apps that are active in the project.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Checkbox.Group
            label="Active apps"
            value={apps}
            onChange={(value) => {
              setApps(value as AppCode[]);
              setError(undefined);
            }}
            error={error}
          >
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {APP_OPTIONS.map((app) => (
                <Checkbox key={app.value} value={app.value} label={app.label} disabled={update.isPending} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end" gap="sm">
            {dirty && (
              <Button variant="default" onClick={() => setApps(project.active_apps)} disabled={update.isPending}>
                Discard changes
              </Button>
            )}
            <Button type="submit" loading={update.isPending}>
              Save apps
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
