import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  List,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  type Answer,
  DOCUMENT_STATUS_LABELS,
  type DocumentStatus,
  defaultAnswers,
  type GeneratorLookups,
  type regenerateResultSchema,
  resolveAnswers,
} from '@portal/shared';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ErrorNotice, LoadFailure, LoadingRows, QueryBody } from '../../../components/page-parts';
import { PolicyContent } from '../../../components/policy/PolicyContent';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type Generation,
  useGeneration,
  useGenerations,
  useLookups,
  useRegenerate,
  useTemplate,
  useTemplateVersion,
} from '../api';
import { documentRoute, EmptyState, FactBadge, PG_BASE, pgRoute, plural, profileLabel } from './pg-parts';
import { AnswersStep, answersPayload, useAnswerLookup } from './WizardPage';

type RegenerateResult = z.infer<typeof regenerateResultSchema>;

export const REGENERATE_EXPLAINED =
  'A new draft version is made from the newer template with the same answers; nothing is published until it goes through review and signatures.';

/** Policies that may get a new draft version from a newer template (not while in review or awaiting signatures). */
const REGENERATABLE = new Set(['draft', 'published']);

const policyName = (document: Generation['document']) =>
  document.number ? `${document.number} ${document.title}` : document.title;

function DocumentStatusBadge({ status }: { status: string }) {
  if (status in DOCUMENT_STATUS_LABELS) return <StatusBadge status={status as DocumentStatus} />;
  return <FactBadge tone="plain">{status}</FactBadge>;
}

/** /app/policy_generator/generated: the policies this project generated, and newer template versions for them. */
export function GeneratedPage({ projectId }: { projectId: number }) {
  usePageTitle('Generated policies | Policy Generator');
  const generations = useGenerations(projectId);
  const [confirming, setConfirming] = useState<Generation | null>(null);
  const [answersOf, setAnswersOf] = useState<Generation | null>(null);
  const [result, setResult] = useState<{ generation: Generation; result: RegenerateResult } | null>(null);

  const list = generations.data?.generations ?? [];
  let body: ReactNode;
  if (list.length === 0)
    body = (
      <EmptyState
        title="No policies generated yet"
        action={
          <Button component={Link} to={PG_BASE}>
            Browse the templates
          </Button>
        }
      >
        Drafts made from a template appear here, with a note when a newer version of their template is published.
      </EmptyState>
    );
  else
    body = (
      <Paper withBorder radius="md" miw={0}>
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="generations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Policy</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Template</Table.Th>
                <Table.Th scope="col">Generated</Table.Th>
                <Table.Th scope="col">Unresolved</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((generation) => (
                <GenerationRow
                  key={generation.id}
                  projectId={projectId}
                  generation={generation}
                  onRegenerate={() => setConfirming(generation)}
                  onAnswers={() => setAnswersOf(generation)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );

  return (
    <Stack gap="md" miw={0}>
      <Stack gap={2}>
        <Title order={2} fz="h3">
          Generated policies
        </Title>
        <Text c="dimmed" size="sm">
          Drafts made from templates. When a template gets a newer version, a policy can get a new draft version from it
          with the same answers.
        </Text>
      </Stack>
      <QueryBody
        query={generations}
        fallback="The generated policies could not be loaded. Please try again."
        loadingLabel="Loading the generated policies"
        rows={5}
      >
        {() => body}
      </QueryBody>
      <ConfirmRegenerate
        projectId={projectId}
        generation={confirming}
        onCancel={() => setConfirming(null)}
        onDone={(generation, done) => {
          setConfirming(null);
          setResult({ generation, result: done });
        }}
      />
      <RedlineModal projectId={projectId} shown={result} onClose={() => setResult(null)} />
      <AnswersModal
        projectId={projectId}
        generation={answersOf}
        onClose={() => setAnswersOf(null)}
        onRegenerated={(generation, done) => {
          setAnswersOf(null);
          setResult({ generation, result: done });
        }}
      />
    </Stack>
  );
}

function GenerationRow({
  projectId,
  generation,
  onRegenerate,
  onAnswers,
}: {
  projectId: number;
  generation: Generation;
  onRegenerate: () => void;
  onAnswers: () => void;
}) {
  const { document, template } = generation;
  const canRegenerate = generation.update_available && REGENERATABLE.has(document.status);
  return (
    <Table.Tr data-generation-id={generation.id}>
      <Table.Td>
        <Anchor
          component={Link}
          to={documentRoute(projectId, document.id)}
          fw={600}
          style={{ overflowWrap: 'anywhere' }}
        >
          {policyName(document)}
        </Anchor>
      </Table.Td>
      <Table.Td>
        {/* A badge clips its label to fit a narrow column: this keeps the whole status readable. */}
        <Box w="max-content">
          <DocumentStatusBadge status={document.status} />
        </Box>
      </Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          <Anchor component={Link} to={pgRoute(`templates/${template.id}`)} size="sm">
            {template.title}
          </Anchor>
          <Group gap={4} wrap="wrap">
            <FactBadge tone="plain">v{generation.version}</FactBadge>
            {generation.update_available && generation.latest_version !== null && (
              <FactBadge tone="warn">v{generation.latest_version} available</FactBadge>
            )}
            {generation.kind === 'regenerate' && <FactBadge tone="plain">Regenerated</FactBadge>}
            {generation.assisted && <FactBadge tone="info">Assisted</FactBadge>}
          </Group>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDateTime(generation.created.at)}</Text>
        {generation.created.by && (
          <Text size="xs" c="dimmed">
            by {generation.created.by}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {generation.unresolved.length === 0 ? (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ) : (
          <span title={generation.unresolved.map(profileLabel).join(', ')}>
            <FactBadge tone="warn">{plural(generation.unresolved.length, 'field')}</FactBadge>
          </span>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="wrap">
          <Button size="compact-sm" variant="default" onClick={onAnswers}>
            Answers
          </Button>
          {canRegenerate && (
            <Button size="compact-sm" variant="light" onClick={onRegenerate}>
              Regenerate from v{generation.latest_version}
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Asks before POST /documents/{id}/regenerate; a 409 (in review, awaiting signatures) shows its message here. */
function ConfirmRegenerate({
  projectId,
  generation,
  onCancel,
  onDone,
}: {
  projectId: number;
  generation: Generation | null;
  onCancel: () => void;
  onDone: (generation: Generation, result: RegenerateResult) => void;
}) {
  const regenerate = useRegenerate(projectId);
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => {
    setFailure(null);
    regenerate.reset();
    onCancel();
  };
  const confirm = async () => {
    if (!generation || regenerate.isPending) return;
    setFailure(null);
    try {
      const result = await regenerate.mutateAsync({ documentId: generation.document.id });
      regenerate.reset();
      onDone(generation, result);
    } catch (error) {
      setFailure(messageFor(error, 'The new draft version could not be made. Please try again.'));
    }
  };
  return (
    <Modal
      opened={generation !== null}
      onClose={close}
      title={generation ? `Regenerate from version ${generation.latest_version}?` : ''}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {generation && (
        <Stack gap="md">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {policyName(generation.document)}
          </Text>
          <Text>{REGENERATE_EXPLAINED}</Text>
          <ErrorNotice message={failure} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button onClick={() => void confirm()} loading={regenerate.isPending}>
              Regenerate
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function RedlineModal({
  projectId,
  shown,
  onClose,
}: {
  projectId: number;
  shown: { generation: Generation; result: RegenerateResult } | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const result = shown?.result;
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title="New draft version made"
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {shown && result && (
        <Stack gap="md">
          <Text>
            Version {result.version} of “{policyName(shown.generation.document)}” is a draft made from template version{' '}
            {shown.generation.latest_version}. Changes against the current version:
          </Text>
          <Group gap="lg" wrap="wrap" role="group" aria-label="Legend">
            <Text size="sm">
              <ins className="policy-legend-added">Added</ins> {plural(result.redline.insertions, 'insertion')}
            </Text>
            <Text size="sm">
              <del className="policy-legend-removed">Removed</del> {plural(result.redline.deletions, 'deletion')}
            </Text>
          </Group>
          {result.redline.insertions === 0 && result.redline.deletions === 0 && (
            <Alert color="blue" variant="light">
              The new version has the same text as the current one.
            </Alert>
          )}
          <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} miw={0}>
            <PolicyContent
              html={result.redline.html}
              label="Changes in the new draft version"
              emptyText="Both versions are empty."
            />
          </Paper>
          {result.unresolved.length > 0 && (
            <Alert color="yellow" variant="light" title="Fill these in before sending it for review">
              <List size="sm" spacing={2}>
                {result.unresolved.map((name) => (
                  <List.Item key={name}>{profileLabel(name)}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button component={Link} to={documentRoute(projectId, result.document_id)}>
              Open the policy
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The provenance of one generation: the template version and each answer it was made with. */
function AnswersModal({
  projectId,
  generation,
  onClose,
  onRegenerated,
}: {
  projectId: number;
  generation: Generation | null;
  onClose: () => void;
  onRegenerated: (generation: Generation, result: RegenerateResult) => void;
}) {
  const detail = useGeneration(projectId, generation?.id ?? null);
  const version = useTemplateVersion(
    projectId,
    generation?.template.id ?? null,
    detail.data?.template_version_id ?? null,
  );
  const lookups = useLookups(projectId);
  const [editing, setEditing] = useState(false);
  const variables = version.data?.body.variables ?? [];
  const shown = (key: string, value: string | number | boolean | null) => {
    const variable = variables.find((v) => v.key === key);
    if (value === null || value === '') return '(no answer)';
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    if (variable?.type === 'department')
      return lookups.data?.departments.find((d) => d.id === value)?.name ?? String(value);
    if (variable?.type === 'user') return lookups.data?.people.find((p) => p.id === value)?.name ?? String(value);
    return String(value);
  };
  const label = (key: string) => variables.find((v) => v.key === key)?.label ?? key;
  const close = () => {
    setEditing(false);
    onClose();
  };
  const canChange =
    generation !== null && lookups.data?.can_generate === true && REGENERATABLE.has(generation.document.status);
  let body: ReactNode;
  if (detail.isPending || version.isPending) body = <LoadingRows label="Loading the answers" rows={4} />;
  else if (detail.isError)
    body = (
      <LoadFailure
        error={detail.error}
        fallback="The answers could not be loaded. Please try again."
        retrying={detail.isFetching}
        onRetry={() => void detail.refetch()}
      />
    );
  else if (editing && generation && lookups.data)
    body = (
      <ChangeAnswers
        projectId={projectId}
        generation={generation}
        answers={detail.data.answers}
        lookups={lookups.data}
        onCancel={() => setEditing(false)}
        onDone={(result) => {
          setEditing(false);
          onRegenerated(generation, result);
        }}
      />
    );
  else
    body = (
      <Stack gap="md">
        {Object.keys(detail.data.answers).length === 0 ? (
          <Text c="dimmed">This template asks nothing beyond the facility profile.</Text>
        ) : (
          <Table withTableBorder verticalSpacing="xs" data-testid="answers">
            <ColumnHeads columns={['Question', 'Answer']} />
            <Table.Tbody>
              {Object.entries(detail.data.answers).map(([key, value]) => (
                <Table.Tr key={key}>
                  <Table.Td>{label(key)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{shown(key, value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {canChange && Object.keys(detail.data.answers).length > 0 && (
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(true)}>
              Change answers
            </Button>
          </Group>
        )}
      </Stack>
    );
  return (
    <Modal
      opened={generation !== null}
      onClose={close}
      title={generation ? `Made from ${generation.template.title}, version ${generation.version}` : ''}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {body}
    </Modal>
  );
}

/**
 * The template's questions, answered as last time, to make a new draft version with other answers (POST
 * /documents/{id}/regenerate with `answers`): from the template's current version, with a redline after.
 */
function ChangeAnswers({
  projectId,
  generation,
  answers: previous,
  lookups,
  onCancel,
  onDone,
}: {
  projectId: number;
  generation: Generation;
  answers: Record<string, string | number | boolean | null>;
  lookups: GeneratorLookups;
  onCancel: () => void;
  onDone: (result: RegenerateResult) => void;
}) {
  const template = useTemplate(projectId, generation.template.id);
  const regenerate = useRegenerate(projectId);
  const current = template.data?.current ?? null;
  const variables = current?.body.variables ?? [];
  const [answers, setAnswers] = useState<Record<string, Answer> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const lookup = useAnswerLookup(lookups);
  // Last time's answers over the current version's defaults, once that version has loaded.
  const shownAnswers = useMemo(() => {
    if (answers) return answers;
    const defaults = defaultAnswers(variables);
    return Object.fromEntries(variables.map((v) => [v.key, v.key in previous ? previous[v.key]! : defaults[v.key]!]));
  }, [answers, variables, previous]);
  const resolved = useMemo(() => resolveAnswers(variables, shownAnswers, lookup), [variables, shownAnswers, lookup]);
  const missing = resolved.missing.filter((key) => !(key in resolved.errors)).length;

  if (template.isPending) return <LoadingRows label="Loading the template" rows={4} />;
  if (template.isError)
    return (
      <LoadFailure
        error={template.error}
        fallback="The template could not be loaded. Please try again."
        retrying={template.isFetching}
        onRetry={() => void template.refetch()}
      />
    );
  if (!current)
    return (
      <Alert color="yellow" variant="light">
        The template has no published version to make a new draft from.
      </Alert>
    );

  const submit = async () => {
    if (regenerate.isPending) return;
    setFailure(null);
    if (Object.keys(resolved.errors).length > 0) {
      setFailure('Some answers need a fix first.');
      return;
    }
    try {
      const result = await regenerate.mutateAsync({
        documentId: generation.document.id,
        template_version_id: current.id,
        answers: answersPayload(variables, shownAnswers),
      });
      onDone(result);
    } catch (error) {
      setFailure(messageFor(error, 'The new draft version could not be made. Please try again.'));
    }
  };

  return (
    <Stack gap="md">
      <Text size="sm">
        A new draft version of “{policyName(generation.document)}” is made from version {current.version} of the
        template with these answers; you see the redline next. Nothing is published until it goes through review and
        signatures.
      </Text>
      <AnswersStep
        variables={variables}
        answers={shownAnswers}
        errors={resolved.errors}
        lookups={lookups}
        missing={missing}
        onAnswer={(key, value) => setAnswers({ ...shownAnswers, [key]: value })}
      />
      <ErrorNotice message={failure} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={regenerate.isPending}>
          Back
        </Button>
        <Button onClick={() => void submit()} loading={regenerate.isPending}>
          Make a new draft version
        </Button>
      </Group>
    </Stack>
  );
}
