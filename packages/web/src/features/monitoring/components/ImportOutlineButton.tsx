import { Box, Button, FileInput, Modal, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { atLeast, OUTLINE_MAX_BYTES, type OutlineItem } from '@portal/shared';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { usePageTree } from '../api/pages-list';
import { useImportOutline, usePreviewOutline } from '../api/structure-outline';
import { pageName, useMonitoringSections } from './pages-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

const TOP = '__top__';
const ACCEPT =
  '.docx,.txt,.md,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/plain,text/markdown';

/** "Import outline" on the pages screen: a Word or text outline becomes draft pages (section create-page). */
export function ImportOutlineButton(_props: Record<string, never>) {
  const projectId = useMonitoringProjectId();
  const may = useMonitoringSections(projectId);
  const [opened, setOpened] = useState(false);
  if (!may('create-page')) return null;
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Import outline
      </Button>
      {opened && <ImportOutlineModal projectId={projectId} onClose={() => setOpened(false)} />}
    </>
  );
}

function ImportOutlineModal({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const tree = usePageTree(projectId);
  const preview = usePreviewOutline(projectId);
  const create = useImportOutline(projectId);
  const [file, setFile] = useState<File | null>(null);
  const [parent, setParent] = useState<string>(TOP);
  const [outline, setOutline] = useState<OutlineItem[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const maxDepth = tree.data?.max_depth ?? 0;
  const parents = useMemo(
    () => [
      { value: TOP, label: 'Top level' },
      ...(tree.data?.pages ?? [])
        .filter((page) => atLeast(page.abilities.level, 'edit') && page.depth < maxDepth)
        .map((page) => ({ value: String(page.id), label: pageName(page) })),
    ],
    [tree.data, maxDepth],
  );
  const parentId = parent === TOP ? null : Number(parent);
  const tooLarge = file !== null && file.size > OUTLINE_MAX_BYTES;

  function choose(next: File | null) {
    setFile(next);
    setOutline(null);
    setFailure(null);
  }

  async function showPreview() {
    if (!file) return;
    setFailure(null);
    try {
      setOutline(await preview.mutateAsync({ file, parentId }));
    } catch (error) {
      setOutline(null);
      setFailure(messageFor(error, 'The outline could not be read. Please try again.'));
    }
  }

  async function createPages() {
    if (!file) return;
    setFailure(null);
    try {
      const created = await create.mutateAsync({ file, parentId });
      toast.success(`${created} draft ${created === 1 ? 'page' : 'pages'} created.`);
      onClose();
    } catch (error) {
      setFailure(messageFor(error, 'The pages could not be created. Please try again.'));
    }
  }

  return (
    <Modal opened onClose={onClose} title="Import outline" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text size="sm">
          A Word file’s headings (Heading 1, 2, 3) or numbered list, or a text file with one title per line (indented,
          or numbered like 1.2), become draft pages. Check the preview before creating them.
        </Text>
        <FileInput
          label="Outline file"
          placeholder="Choose a .docx, .txt or .md file"
          accept={ACCEPT}
          value={file}
          onChange={choose}
          clearable
          error={tooLarge ? `The file is larger than ${OUTLINE_MAX_BYTES / 1024 / 1024} MB.` : undefined}
        />
        <Select
          label="Create the pages under"
          data={parents}
          value={parent}
          onChange={(value) => {
            setParent(value ?? TOP);
            setOutline(null);
          }}
          allowDeselect={false}
          searchable
          limit={200}
          nothingFoundMessage="No page matches"
          comboboxProps={{ withinPortal: true }}
          disabled={tree.isPending}
        />
        <ErrorNotice message={failure} />
        {outline && (
          <Box component="section" aria-label="Outline preview">
            <Text fw={600} mb={4}>
              {outline.length} {outline.length === 1 ? 'page' : 'pages'} will be created as drafts:
            </Text>
            <ScrollArea.Autosize mah={320} type="auto">
              <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="outline-preview">
                {outline.map((item, index) => (
                  <Box
                    component="li"
                    // biome-ignore lint/suspicious/noArrayIndexKey: the preview never reorders
                    key={index}
                    data-depth={item.depth}
                    pl={(item.depth - 1) * 20}
                    py={2}
                  >
                    <Text size="sm">
                      <Text span c="dimmed" size="xs">
                        Level {item.depth}
                      </Text>{' '}
                      {item.number ? `${item.number} ` : ''}
                      {item.title}
                    </Text>
                  </Box>
                ))}
              </Box>
            </ScrollArea.Autosize>
          </Box>
        )}
        <DialogActions onCancel={onClose} cancelDisabled={create.isPending}>
          <Button
            variant={outline ? 'default' : 'filled'}
            onClick={() => void showPreview()}
            disabled={!file || tooLarge || create.isPending}
            loading={preview.isPending}
          >
            Preview
          </Button>
          <Button onClick={() => void createPages()} disabled={!outline || !file} loading={create.isPending}>
            Create pages
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
