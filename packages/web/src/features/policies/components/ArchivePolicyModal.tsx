import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { documentsQueryOptions } from '../api/get-documents';

interface ArchivePolicyModalProps {
  opened: boolean;
  projectId: string;
  document: { id: number; title: string };
  onConfirm: (replacedById: number | null) => void;
  onCancel: () => void;
}

/**
 * The confirmation before archiving a policy, with the published policy that replaces it (optional): the retired
 * policy's stable link then names its replacement and leads there.
 */
export function ArchivePolicyModal({ opened, projectId, document, onConfirm, onCancel }: ArchivePolicyModalProps) {
  const [replacement, setReplacement] = useState<string | null>(null);
  // Read when the dialog opens, not with every policy page.
  const published = useQuery({ ...documentsQueryOptions(projectId, { status: 'published' }), enabled: opened });
  useEffect(() => {
    if (!opened) setReplacement(null);
  }, [opened]);
  const options = (published.data ?? [])
    .filter((row) => row.id !== document.id)
    .map((row) => ({ value: String(row.id), label: row.number ? `${row.number} ${row.title}` : row.title }));

  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Archive policy"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text>
          Archive policy "{document.title}"? It leaves the table of contents and can be restored from the archive.
        </Text>
        <Select
          label="Replaced by (optional)"
          description="Its link will then say which policy took its place."
          placeholder={published.isPending ? 'Loading policies…' : 'No replacement'}
          data={options}
          value={replacement}
          onChange={setReplacement}
          searchable
          clearable
          nothingFoundMessage="No published policy matches"
          error={published.isError ? 'The published policies could not be loaded.' : undefined}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button color="red.8" onClick={() => onConfirm(replacement === null ? null : Number(replacement))}>
            Archive
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
