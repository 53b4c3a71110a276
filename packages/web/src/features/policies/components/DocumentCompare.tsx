import { Alert, Group, Loader, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import type { DocumentDetail } from '@portal/shared';
import { useState } from 'react';
import { LoadFailure } from '../../../components/page-parts';
import { PolicyContent } from '../../../components/policy/PolicyContent';
import { useCompareVersions } from '../api/compare-versions';
import { versionLabel } from './document-format';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * A redline of two versions picked from the document's history (by default the one before the latest against the
 * latest): additions underlined in green, removals struck through in red.
 */
export function DocumentCompare({ projectId, document }: { projectId: string; document: DocumentDetail }) {
  const versions = [...document.versions].sort((a, b) => a.version - b.version);
  const latest = versions.at(-1);
  const previous = versions.at(-2);
  const [from, setFrom] = useState<string | null>(previous ? String(previous.id) : null);
  const [to, setTo] = useState<string | null>(latest ? String(latest.id) : null);
  const fromId = from === null ? null : Number(from);
  const toId = to === null ? null : Number(to);
  const comparison = useCompareVersions(projectId, String(document.id), fromId, toId);

  if (versions.length < 2) {
    return <Text c="dimmed">There is only one version so far: there is nothing to compare yet.</Text>;
  }

  const options = [...versions]
    .reverse()
    .map((version) => ({ value: String(version.id), label: versionLabel(version) }));

  let result = null;
  if (fromId === null || toId === null) {
    result = <Text c="dimmed">Pick two versions to compare.</Text>;
  } else if (fromId === toId) {
    result = <Text c="dimmed">Pick two different versions to compare.</Text>;
  } else if (comparison.isPending) {
    result = (
      <Group gap="sm" role="status" aria-label="Comparing the versions">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Comparing…
        </Text>
      </Group>
    );
  } else if (comparison.isError) {
    result = (
      <LoadFailure
        error={comparison.error}
        fallback="The versions could not be compared. Please try again."
        retrying={comparison.isFetching}
        onRetry={() => void comparison.refetch()}
      />
    );
  } else {
    const { html, insertions, deletions, from: older, to: newer } = comparison.data;
    result = (
      <Stack gap="sm" aria-busy={comparison.isPlaceholderData || undefined}>
        <Text size="sm" c="dimmed">
          Changes from version {older.version} to version {newer.version}.
        </Text>
        <Group gap="lg" wrap="wrap" aria-label="Legend" role="group">
          <Text size="sm">
            <ins className="policy-legend-added">Added</ins> {plural(insertions, 'insertion')}
          </Text>
          <Text size="sm">
            <del className="policy-legend-removed">Removed</del> {plural(deletions, 'deletion')}
          </Text>
        </Group>
        {insertions === 0 && deletions === 0 && (
          <Alert color="blue" variant="light">
            The two versions have the same text.
          </Alert>
        )}
        <Paper
          withBorder
          radius="md"
          p={{ base: 'sm', sm: 'xl' }}
          miw={0}
          style={{ opacity: comparison.isPlaceholderData ? 0.6 : 1 }}
        >
          <PolicyContent
            html={html}
            label={`Changes from version ${older.version} to version ${newer.version}`}
            emptyText="Both versions are empty."
          />
        </Paper>
      </Stack>
    );
  }

  return (
    <Stack gap="md" miw={0}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="From version"
          data={options}
          value={from}
          onChange={setFrom}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="To version"
          data={options}
          value={to}
          onChange={setTo}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      {result}
    </Stack>
  );
}
