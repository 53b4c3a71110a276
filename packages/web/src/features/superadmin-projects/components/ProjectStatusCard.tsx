import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import type { SuperProjectDetail } from '../api/get-project';
import { useUpdateSuperProject } from '../api/update-project';
import { SectionCard } from './parts';

export const DEACTIVATE_MESSAGE = 'Members lose access at once. Nothing is deleted; you can reactivate it later.';

/** Deactivates the project (members lose access, nothing is deleted) or reactivates it. */
export function ProjectStatusCard({ project }: { project: SuperProjectDetail }) {
  const update = useUpdateSuperProject(String(project.id));
  const [confirming, setConfirming] = useState(false);

  async function setActive(isActive: boolean) {
    setConfirming(false);
    try {
      await update.mutateAsync({ is_active: isActive });
      toast.success(isActive ? 'Project reactivated.' : 'Project deactivated.');
    } catch (error) {
      toast.error(
        messageFor(
          error,
          isActive
            ? 'The project could not be reactivated. Please try again.'
            : 'The project could not be deactivated. Please try again.',
        ),
      );
    }
  }

  return (
    <SectionCard title="Status">
      <Text size="sm">
        {project.is_active
          ? 'Active: members can open the project and its active apps.'
          : 'Inactive: members cannot open the project. Its records are kept.'}
      </Text>
      <Group>
        {project.is_active ? (
          <Button color="red.8" variant="outline" loading={update.isPending} onClick={() => setConfirming(true)}>
            Deactivate project
          </Button>
        ) : (
          <Button loading={update.isPending} onClick={() => void setActive(true)}>
            Reactivate project
          </Button>
        )}
      </Group>
      <ConfirmActionModal
        opened={confirming}
        title={`Deactivate ${project.name}?`}
        message={DEACTIVATE_MESSAGE}
        confirmLabel="Deactivate project"
        danger
        onConfirm={() => void setActive(false)}
        onCancel={() => setConfirming(false)}
      />
    </SectionCard>
  );
}
