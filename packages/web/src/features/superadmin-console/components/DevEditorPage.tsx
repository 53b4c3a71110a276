import { Alert, Badge, Button, Code, Grid, Group, Paper, Stack, Text, Title, Typography } from '@mantine/core';
import { sanitizeRequestSchema } from '@portal/shared';
import { type ReactNode, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { sanitizeHtml } from '../../../lib/sanitize';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSanitizeOnServer } from '../api/sanitize-on-server';
import { ConsolePageHeader } from './parts';

const SAMPLE =
  '<h2>Sample heading</h2><p>Try the toolbar: <strong>bold</strong>, <em>italic</em>, <u>underline</u>, lists, quotes and <a href="https://example.org" target="_blank">links</a>.</p><ul><li><p>A list item</p></li></ul>';

/** /dev/editor: the rich-text editor alone, the HTML it makes and what the server's sanitiser keeps of it. */
export function DevEditorPage() {
  usePageTitle('Editor');
  const [html, setHtml] = useState(SAMPLE);
  const [error, setError] = useState<string | undefined>();
  const [result, setResult] = useState<{ input: string; output: string } | null>(null);
  const sanitize = useSanitizeOnServer();

  async function onSanitize() {
    const parsed = sanitizeRequestSchema.safeParse({ html });
    if (!parsed.success) {
      setError(
        parsed.error.issues[0]?.code === 'too_big'
          ? 'The HTML must be at most 200,000 characters.'
          : (parsed.error.issues[0]?.message ?? 'Check the HTML.'),
      );
      return;
    }
    try {
      const output = await sanitize.mutateAsync(html);
      setResult({ input: html, output });
    } catch (cause) {
      const fields = serverFieldErrors(cause, ['html']);
      if (fields.html) setError(fields.html);
      toast.error(messageFor(cause, 'The server could not sanitise the HTML. Please try again.'));
    }
  }

  const stale = result !== null && result.input !== html;
  const preview = useMemo(() => (result ? sanitizeHtml(result.output) : ''), [result]);

  return (
    <Stack gap="lg" w="100%" maw={1300}>
      <ConsolePageHeader
        title="Editor"
        description="The rich-text editor used for the terms and documents, with the HTML it produces and what the server's sanitiser keeps of it."
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack gap="md">
            <RichTextEditor
              label="Content"
              value={html}
              onChange={(next) => {
                setHtml(next);
                if (error) setError(undefined);
              }}
              error={error}
              minHeight="16rem"
            />
            <Group gap="sm">
              <Button onClick={() => void onSanitize()} loading={sanitize.isPending}>
                Sanitise on the server
              </Button>
              <Button variant="default" onClick={() => setHtml('')} disabled={html === ''}>
                Clear
              </Button>
              <Button variant="subtle" onClick={() => setHtml(SAMPLE)}>
                Load the sample
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack gap="lg">
            <HtmlBlock title="Editor HTML" id="editor-html" html={html} empty="The editor is empty." />
            {result ? (
              <>
                <HtmlBlock
                  title="Server-sanitised HTML"
                  id="server-html"
                  html={result.output}
                  empty="The sanitiser kept nothing."
                  badge={
                    result.output === result.input ? (
                      <Badge color="teal.9" variant="outline">
                        Unchanged by the sanitiser
                      </Badge>
                    ) : (
                      <Badge color="yellow.5" autoContrast>
                        Changed by the sanitiser
                      </Badge>
                    )
                  }
                />
                {stale && (
                  <Alert color="blue" variant="light">
                    The editor changed since: sanitise again to see what the server keeps now.
                  </Alert>
                )}
                <Stack gap={6}>
                  <Title order={2} fz="h5" id="sanitised-preview">
                    Preview of the sanitised HTML
                  </Title>
                  <Paper
                    withBorder
                    radius="md"
                    p="md"
                    mah="24rem"
                    role="region"
                    aria-label="Preview of the sanitised HTML"
                    tabIndex={0}
                    style={{ overflowY: 'auto' }}
                  >
                    {preview.trim() ? (
                      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised again here with the SPEC policy
                      <Typography dangerouslySetInnerHTML={{ __html: preview }} />
                    ) : (
                      <Text c="gray.7">Nothing to show.</Text>
                    )}
                  </Paper>
                </Stack>
              </>
            ) : (
              <Paper withBorder radius="md" p="md" bg="gray.0">
                <Text c="gray.7" size="sm">
                  Choose "Sanitise on the server" to see what the server stores of this HTML, and a preview of it.
                </Text>
              </Paper>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function HtmlBlock({
  title,
  id,
  html,
  empty,
  badge,
}: {
  title: string;
  id: string;
  html: string;
  empty: string;
  badge?: ReactNode;
}) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Title order={2} fz="h5" id={id}>
          {title}
        </Title>
        {badge}
      </Group>
      <Code
        block
        role="region"
        aria-labelledby={id}
        tabIndex={0}
        data-testid={id}
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: '16rem', overflowY: 'auto' }}
      >
        {html || empty}
      </Code>
    </Stack>
  );
}
