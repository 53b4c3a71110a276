import { Anchor, Group, List, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { type DocumentDetail, VERSION_STATE_LABELS } from '@portal/shared';
import { Link } from 'react-router';
import { formatDateTime, formatDayLong } from '../../../lib/dates';
import { documentPage, policyFileUrl } from './document-format';

interface HistoryProps {
  projectId: string;
  document: DocumentDetail;
  /** The version the Policy tab shows, marked in the table. */
  shownVersionId: number | null;
}

/** Every version of the document (newest first) with a link to read each, and how its number changed over time. */
export function DocumentHistory({ projectId, document, shownVersionId }: HistoryProps) {
  const versions = [...document.versions].sort((a, b) => b.version - a.version);

  return (
    <Stack gap="xl">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Versions
        </Title>
        {versions.length === 0 ? (
          <Text c="dimmed">This policy has no versions yet.</Text>
        ) : (
          <Paper withBorder radius="md" p={0}>
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="sm" striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Version</Table.Th>
                    <Table.Th scope="col">State</Table.Th>
                    <Table.Th scope="col">Change summary</Table.Th>
                    <Table.Th scope="col">Effective</Table.Th>
                    <Table.Th scope="col">Author</Table.Th>
                    <Table.Th scope="col">Updated</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {versions.map((version) => (
                    <Table.Tr
                      key={version.id}
                      aria-current={version.id === shownVersionId ? 'true' : undefined}
                      data-version={version.version}
                    >
                      <Table.Td fw={600}>{version.version}</Table.Td>
                      <Table.Td>{VERSION_STATE_LABELS[version.state]}</Table.Td>
                      <Table.Td maw={320} style={{ overflowWrap: 'anywhere' }}>
                        {version.change_summary || (
                          <Text span c="dimmed" size="sm">
                            No summary
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{formatDayLong(version.effective_on)}</Table.Td>
                      <Table.Td>{version.author?.name ?? '—'}</Table.Td>
                      <Table.Td>{formatDateTime(version.updated_at)}</Table.Td>
                      <Table.Td>
                        <Group gap="sm" wrap="nowrap">
                          <Anchor
                            component={Link}
                            to={documentPage(projectId, document.id, { version: String(version.id) })}
                            size="sm"
                            aria-label={`View version ${version.version}`}
                          >
                            View
                          </Anchor>
                          {version.source_file && (
                            <Anchor
                              href={policyFileUrl(projectId, version.source_file.id)}
                              download={version.source_file.name}
                              size="sm"
                              aria-label={`Download the source file of version ${version.version}: ${version.source_file.name}`}
                            >
                              Source file
                            </Anchor>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </Stack>

      <Stack gap="sm">
        <Title order={2} size="h4">
          Number history
        </Title>
        {document.number_history.length === 0 ? (
          <Text c="dimmed" size="sm">
            The number has not changed.
          </Text>
        ) : (
          <List spacing="xs" size="sm" aria-label="Number history">
            {[...document.number_history]
              .sort((a, b) => b.at.localeCompare(a.at))
              .map((change) => (
                <List.Item key={`${change.at}-${change.from}-${change.to}`}>
                  {change.from ?? 'No number'} → {change.to ?? 'No number'}
                  <Text span c="dimmed" size="sm">
                    {' '}
                    · {formatDateTime(change.at)}
                    {change.by ? ` by ${change.by.name}` : ''}
                  </Text>
                </List.Item>
              ))}
          </List>
        )}
      </Stack>
    </Stack>
  );
}
