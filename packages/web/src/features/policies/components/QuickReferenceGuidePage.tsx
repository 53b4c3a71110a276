import { Anchor, Box, Code, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { DOCUMENT_STATUS_DESCRIPTIONS, DOCUMENT_STATUSES } from '@portal/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { usePageTitle } from '../../../lib/use-page-title';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

const SECTIONS = [
  { id: 'statuses', title: 'What the statuses mean' },
  { id: 'finding', title: 'Finding a policy' },
  { id: 'reading', title: 'Reading a policy' },
  { id: 'numbering', title: 'How numbering works' },
  { id: 'signing', title: 'Signing' },
] as const;

const SEARCH_EXAMPLES: { query: string; finds: string }[] = [
  { query: 'hand hygiene', finds: 'policies that contain both words, anywhere in the text.' },
  { query: '"hand hygiene"', finds: 'the exact phrase, words side by side in that order.' },
  { query: 'hygiene -surgical', finds: 'policies about hygiene that do not mention "surgical".' },
  { query: 'gloves or gowns', finds: 'policies that contain either word.' },
  { query: '1.2', finds: 'the policy numbered 1.2 and everything below it (1.2.1, 1.2.2…).' },
];

/** /app/policy_management/{projectId}/quick-reference-guide: how to find, read and number policies. */
export function QuickReferenceGuidePage() {
  usePageTitle('Quick reference guide');
  const projectId = usePolicyProjectId();
  const to = (path: string, label: string) => (
    <Anchor component={Link} to={policyRoute(projectId, path)} underline="always">
      {label}
    </Anchor>
  );

  return (
    <Stack gap="lg" w="100%" maw={900}>
      <PageHeading title="Quick reference guide">
        Everything a policy reader needs in five minutes: the statuses, where to look, and how numbers work.
      </PageHeading>

      <Box component="nav" aria-label="On this page">
        <Text fw={500} mb={4}>
          On this page
        </Text>
        <List size="sm" spacing={2}>
          {SECTIONS.map((section) => (
            <List.Item key={section.id}>
              <Anchor href={`#${section.id}`}>{section.title}</Anchor>
            </List.Item>
          ))}
        </List>
      </Box>

      <Section id="statuses" title="What the statuses mean">
        <Text>
          Every policy has one status that says where it stands. Readers only ever see published text; the other
          statuses are steps on the way there.
        </Text>
        <Box style={{ overflowX: 'auto' }}>
          <Table verticalSpacing="sm" miw={420}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={170}>
                  Status
                </Table.Th>
                <Table.Th scope="col">What it means</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {DOCUMENT_STATUSES.map((status) => (
                <Table.Tr key={status} data-status={status}>
                  <Table.Td>
                    <StatusBadge status={status} />
                  </Table.Td>
                  <Table.Td>{DOCUMENT_STATUS_DESCRIPTIONS[status]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      </Section>

      <Section id="finding" title="Finding a policy">
        <List spacing="xs">
          <List.Item>
            <Text span fw={500}>
              Table of contents
            </Text>{' '}
            ({to('toc', 'open it')}): every policy in number order, as a tree you can open and close. The Policy menu on
            the left shows the same tree.
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              Navigator
            </Text>{' '}
            ({to('navigator', 'open it')}): browse by department when you know who owns a policy but not its number.
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              Policy list
            </Text>{' '}
            ({to('documents', 'open it')}): every policy with its status and department, filtered by status.
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              Archive
            </Text>{' '}
            ({to('archive-navigator', 'open it')}): retired policies and the versions that were replaced.
          </List.Item>
        </List>
        <Title order={3} fz="h5">
          Searching
        </Title>
        <Text>
          The search box at the top of every policy screen looks through titles, numbers and the full text of every
          policy you may read. Press Enter to see the results, best matches first.
        </Text>
        <Box style={{ overflowX: 'auto' }}>
          <Table verticalSpacing="xs" miw={420} data-testid="search-examples">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={190}>
                  Type
                </Table.Th>
                <Table.Th scope="col">To find</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {SEARCH_EXAMPLES.map((example) => (
                <Table.Tr key={example.query}>
                  <Table.Td>
                    <Code>{example.query}</Code>
                  </Table.Td>
                  <Table.Td>{example.finds}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
        <Text size="sm" c="dimmed">
          Matching words are highlighted in the results. Archived policies are left out unless you ask for them.
        </Text>
      </Section>

      <Section id="reading" title="Reading a policy">
        <List spacing="xs">
          <List.Item>
            <Text span fw={500}>
              The current version
            </Text>{' '}
            is the published text in force, with its effective date. This is the one to follow.
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              Drafts
            </Text>{' '}
            are changes being prepared. Authors and reviewers see them marked as drafts; until a draft is published, the
            current version still applies.
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              History
            </Text>{' '}
            lists every version with who changed it and when, and the numbers the policy had before.
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              Compare
            </Text>{' '}
            shows what changed between two versions: added text is{' '}
            <Text span style={{ color: '#1d6b2f' }} td="underline">
              underlined in green
            </Text>
            , removed text is{' '}
            <Text span c="red.9" td="line-through">
              struck through in red
            </Text>
            .
          </List.Item>
          <List.Item>
            <Text span fw={500}>
              Printing
            </Text>{' '}
            lays the policy out for paper. A draft or an older version prints with a "NOT CURRENT – version N" watermark
            across the page, so it cannot be mistaken for the policy in force. Before relying on paper, check the portal
            for the current version.
          </List.Item>
        </List>
      </Section>

      <Section id="numbering" title="How numbering works">
        <List spacing="xs">
          <List.Item>
            Numbers are dotted: <Code>1</Code> is a chapter, <Code>1.2</Code> the second policy in it,{' '}
            <Code>1.2.3</Code> a part of that one.
          </List.Item>
          <List.Item>
            They sort part by part, as numbers: <Code>1.2</Code> comes before <Code>1.10</Code>, and <Code>1.9</Code>{' '}
            before <Code>1.10</Code> too.
          </List.Item>
          <List.Item>
            When the project uses department prefixes, a department's policies start with its code, such as{' '}
            <Code>NUR-1.2</Code> for Nursing.
          </List.Item>
          <List.Item>
            A number can change when policies are reordered; the policy keeps its history and its old numbers, and links
            to it keep working.
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Administrators set the scheme in {to('numbering', 'Numbering')} and reorder policies in{' '}
          {to('dnd', 'Reorder and renumber')}.
        </Text>
      </Section>

      <Section id="signing" title="Signing">
        <Text>
          Signers see the policies waiting for their signature, read the published version and sign it; each signature
          is kept with the version it belongs to. Signing arrives in the next release.
        </Text>
      </Section>
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={`${id}-heading`}>
      <Stack gap="sm">
        <Title order={2} fz="h4" id={`${id}-heading`}>
          <span id={id} style={{ scrollMarginTop: '5rem' }}>
            {title}
          </span>
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
