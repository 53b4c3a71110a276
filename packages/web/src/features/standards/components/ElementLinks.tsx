import {
  Anchor,
  Box,
  Button,
  Fieldset,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { STD_LIMITS, STD_LINK_TARGETS } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import {
  type StdLinkTarget,
  useCreateLink,
  useDeleteLink,
  useLinkTargets,
} from '../../../components/standards-links/api';
import { messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import type { StdElement, StdLinkedMeasure, StdLinkedPolicy, StdLinkedProgram } from '../api/elements';
import { AuditIcon, FactBadge, MeasureIcon, PolicyIcon } from './std-parts';
import { formatNumber, formatShare, LINK_TYPE_LABELS, plural, VARIATION_LABELS } from './std-words';

interface Unlinking {
  linkId: number;
  name: string;
}

/**
 * The element's live evidence (DOMAIN.md 3.6 "go beyond"): linked policies with their approval, signatures,
 * attestation and review date; linked measures with their latest value, target and variation; linked chart
 * review programmes with their latest compliance. People who may link add and remove links here.
 */
export function ElementLinks({ projectId, element }: { projectId: string; element: StdElement }) {
  const remove = useDeleteLink(projectId);
  const [unlinking, setUnlinking] = useState<Unlinking | null>(null);
  const canLink = element.abilities.link;
  const onUnlink = canLink ? (linkId: number, name: string) => setUnlinking({ linkId, name }) : undefined;

  const confirmUnlink = () => {
    if (!unlinking) return;
    const { linkId } = unlinking;
    setUnlinking(null);
    remove.mutate(linkId, {
      onSuccess: () => toast.success('Link removed.'),
      onError: (error) => toast.error(messageFor(error, 'The link could not be removed. Please try again.')),
    });
  };

  return (
    <Stack gap="lg">
      <LinkSection title="Linked policies" icon={<PolicyIcon />} empty="No policy is linked to this element.">
        {element.policies.map((policy) => (
          <PolicyItem key={policy.link_id} projectId={projectId} policy={policy} onUnlink={onUnlink} />
        ))}
      </LinkSection>
      <LinkSection title="Linked measures" icon={<MeasureIcon />} empty="No measure is linked to this element.">
        {element.measures.map((measure) => (
          <MeasureItem key={measure.link_id} projectId={projectId} measure={measure} onUnlink={onUnlink} />
        ))}
      </LinkSection>
      <LinkSection
        title="Linked audits"
        icon={<AuditIcon />}
        empty="No chart review programme is linked to this element."
      >
        {element.programs.map((program) => (
          <ProgramItem key={program.link_id} projectId={projectId} program={program} onUnlink={onUnlink} />
        ))}
      </LinkSection>
      <LinkSection
        title="Linked audit questions"
        icon={<AuditIcon />}
        empty="No chart review question is linked to this element."
      >
        {element.questions.map((question) => (
          <QuestionItem key={question.link_id} projectId={projectId} question={question} onUnlink={onUnlink} />
        ))}
      </LinkSection>
      {canLink && <AddLink projectId={projectId} element={element} />}
      <ConfirmActionModal
        opened={unlinking !== null}
        title="Remove this link?"
        message={
          unlinking
            ? `“${unlinking.name}” will no longer be linked to ${element.node.ref_id}. Nothing else changes.`
            : ''
        }
        confirmLabel="Unlink"
        danger
        onConfirm={confirmUnlink}
        onCancel={() => setUnlinking(null)}
      />
    </Stack>
  );
}

function LinkSection({
  title,
  icon,
  empty,
  children,
}: {
  title: string;
  icon: ReactNode;
  empty: string;
  children: ReactNode[];
}) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group gap={6}>
        <Box c="blue.9" style={{ display: 'flex' }}>
          {icon}
        </Box>
        <Title order={3} fz="h4">
          {title}
        </Title>
      </Group>
      {children.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {children}
        </Stack>
      )}
    </Stack>
  );
}

function LinkedItem({
  title,
  to,
  note,
  onUnlink,
  children,
}: {
  title: string;
  to: string;
  note: string;
  onUnlink: (() => void) | undefined;
  children: ReactNode;
}) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Anchor component={Link} to={to} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Anchor>
          {onUnlink && (
            <Button size="compact-xs" variant="subtle" color="red.9" aria-label={`Unlink ${title}`} onClick={onUnlink}>
              Unlink
            </Button>
          )}
        </Group>
        {children}
        {note && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            Note: {note}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Facts({ children }: { children: ReactNode }) {
  return (
    <Group gap={6} wrap="wrap">
      {children}
    </Group>
  );
}

function Fact({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="dark.6" component="span">
      {children}
    </Text>
  );
}

function PolicyItem({
  projectId,
  policy,
  onUnlink,
}: {
  projectId: string;
  policy: StdLinkedPolicy;
  onUnlink: ((linkId: number, name: string) => void) | undefined;
}) {
  const name = policy.number ? `${policy.number} ${policy.title}` : policy.title;
  return (
    <LinkedItem
      title={name}
      to={`/app/policy_management/${projectId}/documents/${policy.id}`}
      note={policy.note}
      onUnlink={onUnlink && (() => onUnlink(policy.link_id, name))}
    >
      <Facts>
        {policy.approved ? (
          <FactBadge tone="good">Approved</FactBadge>
        ) : (
          <FactBadge tone="warn">Not approved</FactBadge>
        )}
        {policy.review_overdue && <FactBadge tone="bad">Review overdue</FactBadge>}
        {policy.evidence_expired && <FactBadge tone="bad">Evidence expired</FactBadge>}
      </Facts>
      <Facts>
        <Fact>{policy.version === null ? 'No published version' : `Version ${policy.version}`}</Fact>
        <Fact>· {plural(policy.signatures, 'signature')}</Fact>
        <Fact>
          ·{' '}
          {policy.attestation_rate === null
            ? 'Nobody is asked to read it'
            : `Attestation ${formatShare(policy.attestation_rate)}`}
        </Fact>
        {policy.next_review_on && <Fact>· Next review {formatDay(policy.next_review_on)}</Fact>}
      </Facts>
    </LinkedItem>
  );
}

const VARIATION_TONE = { improvement: 'good', concern: 'bad', common: 'plain', neutral: 'plain' } as const;

function MeasureItem({
  projectId,
  measure,
  onUnlink,
}: {
  projectId: string;
  measure: StdLinkedMeasure;
  onUnlink: ((linkId: number, name: string) => void) | undefined;
}) {
  const unit = (value: number) => `${formatNumber(value)}${measure.unit_label ? ` ${measure.unit_label}` : ''}`;
  const value = measure.latest?.value ?? null;
  return (
    <LinkedItem
      title={measure.name}
      to={`/app/monitoring/${projectId}/pages/page/${measure.page_id}`}
      note={measure.note}
      onUnlink={onUnlink && (() => onUnlink(measure.link_id, measure.name))}
    >
      {measure.page_title && <Fact>On the page {measure.page_title}</Fact>}
      {measure.latest && value !== null ? (
        <>
          <Facts>
            <Fact>
              Latest {unit(value)} ({measure.latest.period})
            </Fact>
            {measure.target !== null && <Fact>· Target {unit(measure.target)}</Fact>}
          </Facts>
          <Facts>
            {measure.meets_target === true && <FactBadge tone="good">Meets target</FactBadge>}
            {measure.meets_target === false && <FactBadge tone="bad">Below target</FactBadge>}
            {measure.variation && (
              <FactBadge tone={VARIATION_TONE[measure.variation]}>
                Variation: {VARIATION_LABELS[measure.variation]}
              </FactBadge>
            )}
          </Facts>
        </>
      ) : (
        <Fact>{measure.empty_reason ?? 'No value recorded yet.'}</Fact>
      )}
    </LinkedItem>
  );
}

function ProgramItem({
  projectId,
  program,
  onUnlink,
}: {
  projectId: string;
  program: StdLinkedProgram;
  onUnlink: ((linkId: number, name: string) => void) | undefined;
}) {
  const rate = program.latest?.rate ?? null;
  return (
    <LinkedItem
      title={program.name}
      to={`/app/chart-review/${projectId}/dashboard/${program.id}`}
      note={program.note}
      onUnlink={onUnlink && (() => onUnlink(program.link_id, program.name))}
    >
      <Facts>
        {program.latest ? (
          <Fact>
            Latest period {program.latest.period}:{' '}
            {rate === null ? 'no counted reviews' : `${formatShare(rate)} compliance`} (n = {program.latest.n})
          </Fact>
        ) : (
          <Fact>No reviews counted yet.</Fact>
        )}
        {program.target !== null && <Fact>· Target {formatShare(program.target)}</Fact>}
      </Facts>
      {rate !== null && program.target !== null && (
        <Facts>
          {rate >= program.target ? (
            <FactBadge tone="good">Meets target</FactBadge>
          ) : (
            <FactBadge tone="bad">Below target</FactBadge>
          )}
        </Facts>
      )}
    </LinkedItem>
  );
}

/** A linked audit question: its compliance in each programme that audits with its tool. */
function QuestionItem({
  projectId,
  question,
  onUnlink,
}: {
  projectId: string;
  question: StdElement['questions'][number];
  onUnlink: ((linkId: number, name: string) => void) | undefined;
}) {
  return (
    <LinkedItem
      title={question.text}
      to={`/app/chart-review/${projectId}/tools/${question.tool_id}`}
      note={question.note}
      onUnlink={onUnlink && (() => onUnlink(question.link_id, question.text))}
    >
      <Facts>
        <Fact>Audit tool: {question.tool}</Fact>
      </Facts>
      {question.programs.length === 0 ? (
        <Facts>
          <Fact>No programme audits with this tool yet.</Fact>
        </Facts>
      ) : (
        question.programs.map((program) => {
          const rate = program.latest?.rate ?? null;
          return (
            <Facts key={program.id}>
              <Fact>
                <Anchor component={Link} to={`/app/chart-review/${projectId}/dashboard/${program.id}`} size="sm">
                  {program.name}
                </Anchor>
                :{' '}
                {program.latest
                  ? `${program.latest.period}, ${rate === null ? 'no applicable answers' : `${formatShare(rate)} compliance`} (n = ${program.latest.n})`
                  : 'no reviews counted yet'}
              </Fact>
              {rate !== null &&
                (rate >= program.target ? (
                  <FactBadge tone="good">Meets target</FactBadge>
                ) : (
                  <FactBadge tone="bad">Below target</FactBadge>
                ))}
            </Facts>
          );
        })
      )}
    </LinkedItem>
  );
}

// ------------------------------------------------------------------------------------------------ add a link

const TYPE_DATA = STD_LINK_TARGETS.map((value) => ({ value, label: LINK_TYPE_LABELS[value] }));
const PICK_LABEL: Record<StdLinkTarget, string> = {
  policy: 'Policy to link',
  measure: 'Measure to link',
  cr_program: 'Programme to link',
  cr_question: 'Question to link',
};

function linkedIds(element: StdElement, type: StdLinkTarget): Set<number> {
  const list =
    type === 'policy'
      ? element.policies
      : type === 'measure'
        ? element.measures
        : type === 'cr_program'
          ? element.programs
          : element.questions;
  return new Set(list.map((item) => item.id));
}

/** Links a policy, a measure or a chart review programme of the project to this element (POST /links). */
function AddLink({ projectId, element }: { projectId: string; element: StdElement }) {
  const create = useCreateLink(projectId);
  const [type, setType] = useState<StdLinkTarget>('policy');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ target?: string; note?: string }>({});
  // While a choice is shown in the box, its label is the search: ask for everything again instead.
  const query = chosen && debounced === chosen.label ? '' : debounced;
  const targets = useLinkTargets(projectId, type, query);

  const already = linkedIds(element, type);
  const options = (targets.data?.targets ?? [])
    .filter((target) => !already.has(target.id))
    .map((target) => ({
      value: String(target.id),
      label: target.detail ? `${target.label} (${target.detail})` : target.label,
    }));
  if (chosen && !options.some((option) => option.value === chosen.value)) options.unshift(chosen);

  const changeType = (value: string) => {
    setType(value as StdLinkTarget);
    setChosen(null);
    setSearch('');
    setErrors({});
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: { target?: string; note?: string } = {};
    if (!chosen) found.target = `Choose the ${LINK_TYPE_LABELS[type].toLowerCase()} to link.`;
    if (note.trim().length > STD_LIMITS.linkNote) found.note = `The note is at most ${STD_LIMITS.linkNote} characters.`;
    setErrors(found);
    if (!chosen || Object.keys(found).length > 0) return;
    try {
      await create.mutateAsync({
        node_id: element.node.id,
        target_type: type,
        target_id: Number(chosen.value),
        note: note.trim(),
      });
      toast.success(`Linked ${chosen.label}.`);
      setChosen(null);
      setSearch('');
      setNote('');
    } catch (error) {
      const fields = serverFieldErrors(error, ['target_id', 'note', 'node_id']);
      setErrors({ target: fields.target_id ?? fields.node_id, note: fields.note });
      toast.error(messageFor(error, 'The link could not be made. Please try again.'));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Add a link">
      <Fieldset legend="Add link" radius="md" styles={{ legend: { fontWeight: 700 } }}>
        <Stack gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="std-link-type">
              What to link
            </Text>
            <SegmentedControl aria-labelledby="std-link-type" data={TYPE_DATA} value={type} onChange={changeType} />
          </Stack>
          <Select
            label={PICK_LABEL[type]}
            placeholder="Type to search"
            searchable
            clearable
            data={options}
            value={chosen?.value ?? null}
            onChange={(value, option) => {
              setChosen(value && option ? { value, label: option.label } : null);
              setErrors((current) => ({ ...current, target: undefined }));
            }}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            nothingFoundMessage={targets.isFetching ? 'Searching…' : 'Nothing found'}
            error={errors.target}
          />
          <TextInput
            label="Note (optional)"
            description="Why this shows the element is met, or which part of it."
            maxLength={STD_LIMITS.linkNote}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            error={errors.note}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Link
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
