import { Anchor, List, Text } from '@mantine/core';
import { type BrokenReference, documentName } from '@portal/shared';
import { Link } from 'react-router';
import { SectionCard } from './department-parts';
import { documentPage } from './document-format';

/** What became of the linked number, in words ("which was retired"). */
function targetWords(reference: BrokenReference): string {
  switch (reference.reason) {
    case 'retired':
      return `which was retired${reference.target_title ? ` ("${reference.target_title}")` : ''}`;
    case 'unpublished':
      return 'which is not published yet';
    case 'missing':
      return 'which does not exist';
  }
}

/**
 * The admin dashboard's broken cross-references (issue 28): published policies whose text links, by stable link, to
 * a number no current policy holds. Each names both sides and links to the policy to fix.
 */
export function BrokenReferencesCard({ projectId, references }: { projectId: string; references: BrokenReference[] }) {
  return (
    <SectionCard title="Broken cross-references" cardName="Broken cross-references">
      {references.length === 0 ? (
        <Text size="sm" c="dimmed">
          No policy links to a retired or missing policy.
        </Text>
      ) : (
        <List spacing="xs" size="sm" aria-label="Broken cross-references">
          {references.map((reference) => (
            <List.Item key={`${reference.source.id}-${reference.target_number}`} style={{ overflowWrap: 'anywhere' }}>
              <Anchor component={Link} to={documentPage(projectId, reference.source.id)} size="sm">
                {documentName(reference.source)}
              </Anchor>{' '}
              links to {reference.target_number}, {targetWords(reference)}.
            </List.Item>
          ))}
        </List>
      )}
    </SectionCard>
  );
}
