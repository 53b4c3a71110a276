import { Box, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IMPORT_MAX_BYTES } from '@portal/shared';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type ImportDetail, useUploadImport } from '../api/data-imports';
import { ACCEPT, formatSize, SIZE_LIMIT } from './import-parts';

const WRONG_TYPE = 'Choose a CSV or text file (.csv or .txt).';
const TOO_BIG = `The file is larger than ${formatSize(IMPORT_MAX_BYTES)}. Split it into smaller files.`;
const EMPTY_FILE = 'The file is empty.';

function problemOf(file: File): string | null {
  if (!/\.(csv|txt)$/i.test(file.name)) return WRONG_TYPE;
  if (file.size > IMPORT_MAX_BYTES) return TOO_BIG;
  if (file.size === 0) return EMPTY_FILE;
  return null;
}

/**
 * Step 1: choose or drop a CSV file; it is sent with a progress bar, and the server answers with what it detected.
 * `replacing` names the file already uploaded in this wizard, when there is one.
 */
export function ImportUploadStep({
  projectId,
  datasetId,
  replacing,
  onUploaded,
}: {
  projectId: string;
  datasetId: number;
  replacing?: { name: string; size: number; rows: number };
  onUploaded: (detail: ImportDetail) => void;
}) {
  const upload = useUploadImport(projectId, datasetId);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  async function send(file: File | null) {
    if (!file || progress !== null) return;
    const refused = problemOf(file);
    setProblem(refused);
    if (refused) return;
    const controller = new AbortController();
    running.current = controller;
    setProgress(0);
    try {
      const detail = await upload.mutateAsync({ file, onProgress: setProgress, signal: controller.signal });
      onUploaded(detail);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) {
        setProblem(messageFor(error, 'The file could not be uploaded. Please try again.'));
      }
    } finally {
      if (running.current === controller) running.current = null;
      setProgress(null);
    }
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    void send(event.dataTransfer.files[0] ?? null);
  }

  const percent = progress === null ? 0 : Math.round(progress * 100);
  return (
    <Stack gap="md">
      {replacing && (
        <Text data-testid="uploaded-file" style={{ overflowWrap: 'anywhere' }}>
          Uploaded: <strong>{replacing.name}</strong> ({formatSize(replacing.size)},{' '}
          {replacing.rows.toLocaleString('en-US')} {replacing.rows === 1 ? 'row' : 'rows'}). Choose another file to
          start over with it.
        </Text>
      )}
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        p={{ base: 'md', sm: 'xl' }}
        data-testid="drop-zone"
        style={{
          border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'gray-5'})`,
          borderRadius: 'var(--mantine-radius-md)',
          background: dragging ? 'var(--mantine-color-blue-0)' : 'var(--mantine-color-gray-0)',
          textAlign: 'center',
        }}
      >
        <Stack gap="xs" align="center">
          <Text fw={500}>Drag a CSV file here, or choose one</Text>
          <Text size="sm" c="gray.8">
            {SIZE_LIMIT}
          </Text>
          <FileButton onChange={(file) => void send(file)} accept={ACCEPT} disabled={progress !== null}>
            {(props) => (
              <Button {...props} variant={replacing ? 'default' : 'filled'} disabled={progress !== null}>
                {replacing ? 'Choose another file' : 'Choose a file'}
              </Button>
            )}
          </FileButton>
        </Stack>
      </Box>
      {progress !== null && (
        <Stack gap={6} role="status" aria-label="Uploading the file">
          <Progress value={percent} aria-label="Upload progress" data-testid="upload-progress" />
          <Group justify="space-between" gap="sm">
            <Text size="sm">{progress < 1 ? `Uploading… ${percent}%` : 'Reading the file…'}</Text>
            <Button variant="subtle" size="compact-sm" onClick={() => running.current?.abort()}>
              Cancel upload
            </Button>
          </Group>
        </Stack>
      )}
      <ErrorNotice message={problem} />
    </Stack>
  );
}
