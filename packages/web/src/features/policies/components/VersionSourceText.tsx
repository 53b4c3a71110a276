import { Alert, Anchor, Group, Paper, Progress, Spoiler, Stack, Text, Title } from '@mantine/core';
import { formatPercent } from '@portal/shared';
import { useId } from 'react';
import { LoadingRows, QueryFailure } from '../../../components/page-parts';
import { type SourceText, useSourceText } from '../api/get-source-text';
import type { PolicyVersion } from '../api/get-version';
import { policyFileUrl } from './document-format';

const PDF = 'application/pdf';

/** The text as paragraphs: a blank line starts one, and the lines inside one keep their breaks (lists, headings). */
export function textParagraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/**
 * The text the portal read from a version's PDF, beside the original: a link to the file, how far reading got
 * (asked again every 2 s while it reads), and the text. Nothing for a version without a PDF.
 */
export function VersionSourceText({
  projectId,
  documentId,
  version,
}: {
  projectId: string;
  documentId: string;
  version: PolicyVersion;
}) {
  const file = version.source_file?.content_type === PDF ? version.source_file : null;
  const query = useSourceText(projectId, documentId, version.id, file !== null);
  const headingId = useId();
  if (!file) return null;
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={2} size="h4" id={headingId}>
            Text of the PDF
          </Title>
          <Anchor href={policyFileUrl(projectId, file.id)} download={file.name} size="sm">
            Download the original PDF{file.name ? ` (${file.name})` : ''}
          </Anchor>
        </Group>
        {query.data ? (
          <SourceTextBody text={query.data} />
        ) : query.isError ? (
          <QueryFailure query={query} fallback="The text of this PDF could not be loaded." />
        ) : (
          <LoadingRows label="Loading the text of the PDF" rows={3} />
        )}
      </Stack>
    </Paper>
  );
}

function SourceTextBody({ text }: { text: SourceText }) {
  if (text.state === 'queued' || text.state === 'reading') {
    return (
      <Stack gap={6}>
        <Text size="sm" role="status">
          Reading the text of this PDF… {formatPercent(text.progress / 100, { digits: 0 })}
        </Text>
        <Progress value={text.progress} animated aria-label="Reading the text of this PDF" />
        <Text size="sm" c="dimmed">
          Search finds its words once it is read. You can leave this page meanwhile.
        </Text>
      </Stack>
    );
  }
  if (text.state === 'failed') {
    return (
      <Alert color="red" title="The text of this PDF could not be read">
        {text.error ?? 'Reading stopped with an error.'} Search finds this policy by its title and number only; the
        original PDF can still be downloaded.
      </Alert>
    );
  }
  const paragraphs = textParagraphs(text.text);
  if (paragraphs.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This PDF has no text the portal could read. Download the original to read it.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {text.method === 'ocr' && (
        <Alert color="yellow" title="Read from scanned pages">
          Read by text recognition from scanned pages: check it against the original.
        </Alert>
      )}
      <Spoiler maxHeight={360} showLabel="Show all the text" hideLabel="Show less">
        <div data-testid="source-text">
          {paragraphs.map((paragraph, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one text never move
            <Text key={index} mb="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {paragraph}
            </Text>
          ))}
        </div>
      </Spoiler>
      {text.pages !== null && (
        <Text size="xs" c="dimmed">
          {text.pages === 1 ? '1 page' : `${text.pages} pages`}
        </Text>
      )}
    </Stack>
  );
}
