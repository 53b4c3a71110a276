import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useIntroduction, useUpdateIntroduction } from '../api/pages-introduction';
import { PageStatusBadge, pageName, RichContent, SubPageCount } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

/** /introduction: the programme overview (administrators edit it) and the top-level pages. */
export function IntroductionPage() {
  const projectId = useMonitoringProjectId();
  usePageTitle('Introduction');
  const query = useIntroduction(projectId);
  const save = useUpdateIntroduction(projectId);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    if (draft === null) return;
    setError(null);
    save.mutate(draft, {
      onSuccess: () => {
        setDraft(null);
        toast.success('Introduction saved');
      },
      onError: (failure) =>
        setError(serverFieldErrors(failure, ['introduction']).introduction ?? messageFor(failure, 'Not saved.')),
    });
  };

  return (
    <Stack gap="lg">
      <PageHeading title="Introduction">What the quality programme is for and how it is organised.</PageHeading>
      <QueryBody query={query} fallback="The introduction could not be loaded." loadingLabel="Loading the introduction">
        {(data) => (
          <>
            <Paper withBorder p="md" component="section" aria-label="Programme introduction">
              {draft === null ? (
                <Stack gap="sm">
                  <RichContent html={data.introduction} emptyText="No introduction has been written yet." />
                  {data.can_edit && (
                    <Group>
                      <Button variant="default" onClick={() => setDraft(data.introduction)}>
                        Edit introduction
                      </Button>
                    </Group>
                  )}
                </Stack>
              ) : (
                <Stack gap="sm">
                  <RichTextEditor
                    label="Introduction"
                    value={draft}
                    onChange={setDraft}
                    tables
                    minHeight={200}
                    error={error ?? undefined}
                  />
                  <Group>
                    <Button onClick={submit} loading={save.isPending}>
                      Save
                    </Button>
                    <Button
                      variant="default"
                      onClick={() => {
                        setDraft(null);
                        setError(null);
                      }}
                      disabled={save.isPending}
                    >
                      Cancel
                    </Button>
                  </Group>
                </Stack>
              )}
            </Paper>
            <Stack gap="xs" component="section" aria-labelledby="introduction-pages-title">
              <Title order={2} size="h4" id="introduction-pages-title">
                Programme areas
              </Title>
              {data.top_pages.length === 0 ? (
                <Text c="dimmed">No pages found.</Text>
              ) : (
                <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
                  {data.top_pages.map((page) => (
                    <Group component="li" key={page.id} gap="sm" wrap="wrap">
                      <Anchor component={Link} to={monitoringRoute(projectId, `pages/page/${page.id}`)}>
                        {pageName(page)}
                      </Anchor>
                      <PageStatusBadge status={page.status} />
                      <SubPageCount count={page.child_count} />
                    </Group>
                  ))}
                </Stack>
              )}
            </Stack>
          </>
        )}
      </QueryBody>
    </Stack>
  );
}
