import './template-preview.css';
import { Anchor, List, Skeleton, Stack, Table, Text } from '@mantine/core';
import {
  assemblePolicy,
  type FacilityProfile,
  PROFILE_NAME_LABELS,
  PROFILE_NAMES,
  profileValues,
  type StandardRef,
  type TemplateSectionKey,
  type TemplateValue,
  VARIABLE_TYPE_LABELS,
  type VariableDef,
} from '@portal/shared';
import { useDeferredValue, useMemo } from 'react';
import { Link } from 'react-router';
import { PolicyContent } from '../../../components/policy/PolicyContent';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';

const PROFILE_PATH = '/app/policy_generator/profile';

/**
 * A template rendered the way the wizard will render it (DOMAIN.md 4.6 "preview must match output exactly"): the
 * facility profile's values, each variable's default as the sample answer, and every placeholder still open
 * highlighted (`mark.pg-unresolved`).
 */

type PreviewVariable = Pick<VariableDef, 'key' | 'label' | 'type' | 'default'>;

/** The values of the preview: the profile's, then each variable's default (people and departments have none). */
export function sampleValues(
  profile: FacilityProfile | null,
  variables: readonly PreviewVariable[],
): Record<string, TemplateValue> {
  const values: Record<string, TemplateValue> = profile ? profileValues(profile) : {};
  for (const v of variables) {
    if (!v.key) continue;
    if (v.type === 'boolean') values[v.key] = v.default === true;
    else if (v.type === 'department' || v.type === 'user') continue;
    else if (v.default !== null && v.default !== '') values[v.key] = v.default;
  }
  return values;
}

/** A name as the author knows it: the variable's label, or the profile field it comes from. */
export function nameLabel(name: string, variables: readonly PreviewVariable[]): string {
  const variable = variables.find((v) => v.key === name);
  if (variable?.label.trim()) return variable.label.trim();
  return PROFILE_NAME_LABELS[name] ?? name;
}

interface TemplatePreviewProps {
  sections: readonly { key: TemplateSectionKey; html: string }[];
  variables: readonly PreviewVariable[];
  /** undefined while the profile loads; null when it could not be read (the profile's names stay open). */
  profile: FacilityProfile | null | undefined;
  /** Names the region for screen readers ("Preview of version 3"). */
  label: string;
}

export function TemplatePreview({ sections, variables, profile, label }: TemplatePreviewProps) {
  // Typing in the editor stays quick: the preview follows a moment later when the page is busy.
  const deferredSections = useDeferredValue(sections);
  const deferredVariables = useDeferredValue(variables);
  const result = useMemo(
    () => assemblePolicy(deferredSections, sampleValues(profile ?? null, deferredVariables), { markUnresolved: true }),
    [deferredSections, deferredVariables, profile],
  );

  if (profile === undefined) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading the preview">
        <Skeleton height={20} width="40%" />
        <Skeleton height={80} />
      </Stack>
    );
  }

  return (
    <Stack gap="sm" className="pg-preview" miw={0}>
      {profile === null ? (
        <Text size="sm" c="dimmed">
          The facility profile could not be loaded: its names are left as placeholders.
        </Text>
      ) : (
        !profile.saved && (
          <Text size="sm" c="dimmed">
            The facility profile has not been saved yet: the preview uses the project's details.
          </Text>
        )
      )}
      {result.unresolved.length > 0 && (
        <Text size="sm" data-testid="pg-unresolved-list">
          <Text span fw={600} size="sm">
            Filled in when the policy is generated:
          </Text>{' '}
          {result.unresolved.map((name) => nameLabel(name, deferredVariables)).join(', ')}
          {profile?.can_edit && result.unresolved.some((name) => PROFILE_NAMES.has(name)) && (
            <>
              {' '}
              <Anchor component={Link} to={PROFILE_PATH} size="sm">
                Complete the facility profile
              </Anchor>
            </>
          )}
        </Text>
      )}
      <PolicyContent html={result.html} label={label} emptyText="Nothing to show: every section is empty." />
    </Stack>
  );
}

interface VariableListItem {
  key: string;
  label: string;
  type: VariableDef['type'];
  required: boolean;
  default: VariableDef['default'];
  help: string;
  options: readonly string[];
}

function defaultText(v: VariableListItem): string {
  if (v.default === null || v.default === '') return '';
  if (typeof v.default === 'boolean') return v.default ? 'Yes' : 'No';
  return String(v.default);
}

/** The questions a template asks in the wizard. */
export function VariablesTable({ variables }: { variables: readonly VariableListItem[] }) {
  if (variables.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This template asks nothing beyond the facility profile.
      </Text>
    );
  }
  return (
    // Three columns whose text wraps: it fits a phone without a scrolling region (which a keyboard could not reach).
    <Table verticalSpacing="xs" data-testid="pg-variables" style={{ overflowWrap: 'anywhere' }}>
      <ColumnHeads columns={['Question', 'Type', 'Required']} />
      <Table.Tbody>
        {variables.map((v) => (
          <Table.Tr key={v.key}>
            <Table.Td>
              <Text size="sm" fw={600}>
                {v.label}
              </Text>
              {v.help && (
                <Text size="xs" c="dimmed">
                  {v.help}
                </Text>
              )}
              {defaultText(v) && (
                <Text size="xs" c="dimmed">
                  Default: {defaultText(v)}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{VARIABLE_TYPE_LABELS[v.type]}</Text>
              {v.type === 'select' && v.options.length > 0 && (
                <Text size="xs" c="dimmed">
                  {v.options.join(' · ')}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{v.required ? 'Yes' : 'No'}</Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The standards elements a template is written to help satisfy. */
export function StandardsList({
  standards,
  known = [],
}: {
  standards: readonly StandardRef[];
  /** Titles of the elements the project's frameworks have (the template detail's current_standards). */
  known?: readonly (StandardRef & { title: string | null })[];
}) {
  if (standards.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No standards are linked to this template.
      </Text>
    );
  }
  return (
    <List spacing={4} size="sm" data-testid="pg-standards">
      {standards.map((s) => (
        <List.Item key={`${s.framework} ${s.ref_id}`}>
          <Text span size="sm" fw={600}>
            {s.framework}
          </Text>{' '}
          <Text span size="sm" ff="monospace">
            {s.ref_id}
          </Text>
          {titleOf(known, s) && (
            <Text span size="sm" c="dimmed">
              {' '}
              {titleOf(known, s)}
            </Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}

const titleOf = (known: readonly (StandardRef & { title: string | null })[], ref: StandardRef) =>
  known.find((k) => k.framework === ref.framework && k.ref_id === ref.ref_id)?.title ?? null;

/** The profile flags a template needs, by their labels. */
export function FlagsText({ flags }: { flags: readonly string[] }) {
  if (flags.length === 0) return null;
  return (
    <Text size="sm">
      <Text span fw={600} size="sm">
        Written for facilities where:
      </Text>{' '}
      {flags.map((flag) => PROFILE_NAME_LABELS[flag] ?? flag).join('; ')}
    </Text>
  );
}
