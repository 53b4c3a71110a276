import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoadingRows, QueryFailure } from '../../../components/page-parts';
import { Snippet } from '../../../components/policy/Snippet';
import { usePageTitle } from '../../../lib/use-page-title';
import { isUnavailable, useGuestProject, useGuestSearch, useGuestToc } from '../api/guest-reader';
import { GuestFrame, GuestUnavailable } from './guest-frame';

const documentPath = (projectId: string, id: number) => `/read/${projectId}/documents/${id}`;
const named = (doc: { number: string | null; title: string }) =>
  doc.number ? `${doc.number} ${doc.title}` : doc.title;

/** /read/{projectId}: a unit's shared computer searches and browses the published policies without an account. */
export function GuestReaderHomePage() {
  const projectId = useParams().projectId ?? '';
  const project = useGuestProject(projectId);
  const name = project.data?.project.name;
  usePageTitle(name ? `${name} policies` : 'Policies');

  let body: ReactNode;
  if (project.isPending) body = <LoadingRows label="Loading the policies" rows={5} />;
  else if (project.isError && isUnavailable(project.error)) body = <GuestUnavailable projectId={projectId} />;
  else if (project.isError) body = <QueryFailure query={project} fallback="The policies could not be loaded." />;
  else body = <GuestLibrary projectId={projectId} name={project.data.project.name} />;
  return (
    <GuestFrame projectId={projectId} projectName={name}>
      {body}
    </GuestFrame>
  );
}

function GuestLibrary({ projectId, name }: { projectId: string; name: string }) {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const [draft, setDraft] = useState(q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(draft.trim() ? { q: draft.trim() } : {});
  };
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {name} policies
      </Title>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet known everywhere (jsdom, older browsers); a form with role="search" is the same landmark */}
      <form onSubmit={submit} role="search" aria-label="Policies">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Search policies"
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            style={{ flex: 1, minWidth: 0 }}
            maxLength={200}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      {q ? <GuestResults projectId={projectId} q={q} /> : <GuestToc projectId={projectId} />}
    </Stack>
  );
}

function GuestResults({ projectId, q }: { projectId: string; q: string }) {
  const search = useGuestSearch(projectId, q);
  if (search.isPending) return <LoadingRows label="Searching" rows={3} />;
  if (search.isError) return <QueryFailure query={search} fallback="The search could not be completed." />;
  const { results, total } = search.data;
  return (
    <Stack gap="sm" component="section" aria-label="Search results">
      <Group justify="space-between" gap="xs">
        <Text fw={600} aria-live="polite">
          {total === 0 ? `No policies found for “${q}”.` : `${total} ${total === 1 ? 'policy' : 'policies'} found`}
        </Text>
        <Anchor component={Link} to={`/read/${projectId}`} size="sm">
          Back to the table of contents
        </Anchor>
      </Group>
      {results.map((result) => (
        <Stack key={result.id} gap={2}>
          <Anchor component={Link} to={documentPath(projectId, result.id)} fw={600}>
            {named(result)}
          </Anchor>
          {result.snippet && <Snippet snippet={result.snippet} />}
        </Stack>
      ))}
    </Stack>
  );
}

function GuestToc({ projectId }: { projectId: string }) {
  const toc = useGuestToc(projectId);
  if (toc.isPending) return <LoadingRows label="Loading the table of contents" rows={5} />;
  if (toc.isError) return <QueryFailure query={toc} fallback="The table of contents could not be loaded." />;
  return (
    <Stack gap="xs" component="section" aria-labelledby="guest-toc-heading">
      <Title order={2} size="h4" id="guest-toc-heading">
        Table of contents
      </Title>
      {toc.data.documents.length === 0 ? (
        <Text c="dimmed">No policies are published yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={0}>
          <Table verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="6rem">Number</Table.Th>
                <Table.Th>Policy</Table.Th>
                <Table.Th visibleFrom="sm">Department</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {toc.data.documents.map((doc) => (
                <Table.Tr key={doc.id}>
                  <Table.Td>{doc.number ?? '—'}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Anchor component={Link} to={documentPath(projectId, doc.id)}>
                      {doc.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{doc.department ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
