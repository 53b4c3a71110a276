import { Box, Button, Center, FileInput, Group, Image, Stack, Text } from '@mantine/core';
import { LOGO_TYPES } from '@portal/shared';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import type { SuperProjectDetail } from '../api/get-project';
import { useRemoveSuperProjectLogo } from '../api/remove-logo';
import { useUploadSuperProjectLogo } from '../api/upload-logo';
import { SectionCard } from './parts';
import { type LogoType, logoFileError, logoSrc, readFileAsBase64 } from './project-helpers';

/** The project's logo: shown on its pages; PNG, JPEG or WebP up to 512 KB. */
export function ProjectLogoCard({ project }: { project: SuperProjectDetail }) {
  const id = String(project.id);
  const upload = useUploadSuperProjectLogo(id);
  const remove = useRemoveSuperProjectLogo(id);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const busy = upload.isPending || remove.isPending || reading;

  function choose(chosen: File | null) {
    setFile(chosen);
    setError(chosen ? logoFileError(chosen) : null);
  }

  async function send() {
    if (busy) return;
    if (!file) {
      setError('Choose an image first.');
      return;
    }
    const invalid = logoFileError(file);
    if (invalid) {
      setError(invalid);
      return;
    }
    let data: string;
    setReading(true);
    try {
      data = await readFileAsBase64(file);
    } catch {
      setError('The file could not be read. Choose it again.');
      return;
    } finally {
      setReading(false);
    }
    try {
      await upload.mutateAsync({ content_type: file.type as LogoType, data });
      setFile(null);
      setError(null);
      toast.success('Logo uploaded.');
    } catch (failed) {
      const fields = serverFieldErrors(failed, ['content_type', 'data'] as const);
      const field = fields.content_type ?? fields.data;
      if (field) setError(field);
      else toast.error(messageFor(failed, 'The logo could not be uploaded. Please try again.'));
    }
  }

  async function removeLogo() {
    setConfirming(false);
    try {
      await remove.mutateAsync();
      toast.success('Logo removed.');
    } catch (failed) {
      toast.error(messageFor(failed, 'The logo could not be removed. Please try again.'));
    }
  }

  return (
    <SectionCard title="Logo" description="Shown on the project's pages. PNG, JPEG or WebP, at most 512 KB.">
      <Box
        p="sm"
        bd="1px solid var(--mantine-color-gray-3)"
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        mih={96}
      >
        {project.logo_url ? (
          <Center h={96}>
            <Image
              src={logoSrc(project.logo_url, project.updated_at)}
              alt={`${project.name} logo`}
              fit="contain"
              h={96}
              w="auto"
              maw="100%"
            />
          </Center>
        ) : (
          <Center h={96}>
            <Text size="sm" c="dimmed">
              No logo yet.
            </Text>
          </Center>
        )}
      </Box>
      <Stack gap="sm">
        <FileInput
          label={project.logo_url ? 'Replace the logo' : 'Upload a logo'}
          placeholder="Choose an image"
          accept={LOGO_TYPES.join(',')}
          value={file}
          onChange={choose}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
          error={error}
          disabled={busy}
        />
        <Group gap="sm">
          <Button onClick={() => void send()} loading={upload.isPending || reading}>
            Upload logo
          </Button>
          {project.logo_url && (
            <Button
              color="red.8"
              variant="outline"
              onClick={() => setConfirming(true)}
              loading={remove.isPending}
              disabled={upload.isPending}
            >
              Remove logo
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmActionModal
        opened={confirming}
        title="Remove the logo?"
        message="The project's pages show no logo until a new one is uploaded."
        confirmLabel="Remove logo"
        danger
        onConfirm={() => void removeLogo()}
        onCancel={() => setConfirming(false)}
      />
    </SectionCard>
  );
}
