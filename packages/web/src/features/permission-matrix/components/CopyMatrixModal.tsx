import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { MemberProject } from '@portal/shared';
import { useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';

interface CopyMatrixModalProps {
  opened: boolean;
  appName: string;
  /** The project whose matrix is replaced. */
  target: MemberProject;
  /** The projects to copy from. */
  sources: MemberProject[];
  /** Added to the warning when there are edits not saved yet. */
  unsavedNote: string;
  onCopy: (from: MemberProject) => Promise<void>;
  onClose: () => void;
}

/** "Copy from another project": pick the source, then confirm that it replaces this project's matrix. */
export function CopyMatrixModal(props: CopyMatrixModalProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title="Copy permissions from another project"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted while open only: every opening starts with nothing picked. */}
      {props.opened && <CopyForm {...props} />}
    </Modal>
  );
}

function CopyForm({ appName, target, sources, unsavedNote, onCopy, onClose }: CopyMatrixModalProps) {
  const [fromId, setFromId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const from = sources.find((item) => String(item.id) === fromId) ?? null;

  async function submit() {
    if (!from) {
      setError('Pick the project to copy from.');
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await onCopy(from);
    } catch (caught) {
      setFailure(messageFor(caught, 'The permissions could not be copied. Please try again.'));
      setBusy(false);
    }
  }

  return (
    <Stack gap="md">
      <ErrorNotice message={failure} />
      <Select
        label="Copy from"
        placeholder="Pick a project"
        searchable
        data={sources.map((item) => ({ value: String(item.id), label: item.name }))}
        value={fromId}
        onChange={(value) => {
          setFromId(value);
          setError(null);
        }}
        nothingFoundMessage="No project matches."
        error={error}
        required
        disabled={busy}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
      <Text size="sm">
        {from
          ? `The ${appName} permissions of ${target.name} are replaced by those of ${from.name}.`
          : `The ${appName} permissions of ${target.name} are replaced by those of the project you pick.`}
        {unsavedNote}
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color="red.8" onClick={() => void submit()} loading={busy}>
          Replace permissions
        </Button>
      </Group>
    </Stack>
  );
}
