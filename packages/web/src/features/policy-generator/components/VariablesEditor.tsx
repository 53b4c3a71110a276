import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { PG_LIMITS, VARIABLE_TYPE_LABELS, VARIABLE_TYPES, type VariableType } from '@portal/shared';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { ReorderControls } from '../../../components/list-editor/ReorderControls';
import { ErrorNotice } from '../../../components/page-parts';
import { emptyDefault, type FormErrors, type ListChange, newUid, rowError, type VariableRow } from './template-form';

interface VariablesEditorProps {
  variables: VariableRow[];
  errors: FormErrors;
  onChange: ListChange<VariableRow>;
}

const TYPE_OPTIONS = VARIABLE_TYPES.map((type) => ({ value: type, label: VARIABLE_TYPE_LABELS[type] }));

/** Ids of a row's controls, so focus can follow a row that moved or was added. */
export const variableControlId = (uid: string, control: 'key' | 'up' | 'down' | 'remove') => `pg-var-${uid}-${control}`;

/** Moves focus to an element by id once the list has rendered again. */
export function useFocusAfterRender() {
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    if (!target) return;
    document.getElementById(target)?.focus();
    setTarget(null);
  }, [target]);
  return setTarget;
}

/**
 * The questions a template asks (DOMAIN.md 4.2 "variables schema"): key, label, type, required, default (by type;
 * departments and people have none: they differ per project), help and, for a choice, its options.
 */
export const VariablesEditor = memo(function VariablesEditor({ variables, errors, onChange }: VariablesEditorProps) {
  const focusLater = useFocusAfterRender();
  const count = variables.length;

  const move = useCallback(
    (index: number, uid: string, offset: -1 | 1) => {
      onChange((rows) => {
        const next = [...rows];
        const [row] = next.splice(index, 1);
        next.splice(index + offset, 0, row!);
        return next;
      }, 'variables');
      // Focus stays on the button pressed, unless the row reached the end where that button is disabled.
      const to = index + offset;
      const atEdge = offset === -1 ? to === 0 : to === count - 1;
      const button = offset === -1 ? (atEdge ? 'down' : 'up') : atEdge ? 'up' : 'down';
      focusLater(variableControlId(uid, button));
    },
    [onChange, focusLater, count],
  );

  // The rows as last drawn, for the callbacks that must stay the same while one row is typed in.
  const latest = useRef(variables);
  latest.current = variables;

  const remove = useCallback(
    (index: number) => {
      onChange((rows) => rows.filter((_, i) => i !== index), 'variables');
      const rest = latest.current.filter((_, i) => i !== index);
      const neighbour = rest[Math.min(index, rest.length - 1)];
      focusLater(neighbour ? variableControlId(neighbour.uid, 'key') : 'pg-add-variable');
    },
    [onChange, focusLater],
  );

  function add() {
    const row: VariableRow = {
      uid: newUid('v'),
      key: '',
      label: '',
      type: 'text',
      required: false,
      default: null,
      help: '',
      options: [],
    };
    onChange((rows) => [...rows, row], 'variables');
    focusLater(variableControlId(row.uid, 'key'));
  }

  return (
    <Stack gap="md">
      <ErrorNotice message={errors.variables} />
      {variables.length === 0 && (
        <Text size="sm" c="dimmed">
          No questions yet: the template uses the facility profile only.
        </Text>
      )}
      {variables.map((variable, index) => (
        <VariableCard
          key={variable.uid}
          variable={variable}
          index={index}
          total={count}
          errors={rowErrors(errors, index)}
          onChange={onChange}
          onMove={move}
          onRemove={remove}
        />
      ))}
      <Group>
        <Button id="pg-add-variable" variant="default" onClick={add} disabled={count >= PG_LIMITS.variables}>
          Add a variable
        </Button>
      </Group>
    </Stack>
  );
});

const ROW_FIELDS = ['key', 'label', 'type', 'required', 'default', 'help', 'options'] as const;
type RowField = (typeof ROW_FIELDS)[number];
type RowErrors = Partial<Record<RowField, string>>;

/** One row's messages, as a string key so an unchanged row is not drawn again. */
function rowErrors(errors: FormErrors, index: number): string {
  const found: RowErrors = {};
  for (const field of ROW_FIELDS) {
    const message = rowError(errors, `variables.${index}`, field);
    if (message) found[field] = message;
  }
  return JSON.stringify(found);
}

interface VariableCardProps {
  variable: VariableRow;
  index: number;
  total: number;
  /** RowErrors as JSON. */
  errors: string;
  onChange: ListChange<VariableRow>;
  onMove: (index: number, uid: string, offset: -1 | 1) => void;
  onRemove: (index: number) => void;
}

const VariableCard = memo(function VariableCard({
  variable,
  index,
  total,
  errors: errorsJson,
  onChange,
  onMove,
  onRemove,
}: VariableCardProps) {
  const errors = JSON.parse(errorsJson) as RowErrors;
  const name = `Variable ${index + 1}`;
  const update = (field: RowField, patch: Partial<VariableRow>) =>
    onChange((rows) => rows.map((v, i) => (i === index ? { ...v, ...patch } : v)), `variables.${index}.${field}`);

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      role="group"
      aria-label={name}
      data-variable-uid={variable.uid}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {name}
            {variable.label.trim() ? `: ${variable.label.trim()}` : ''}
          </Text>
          <ReorderControls
            noun="variable"
            number={index + 1}
            total={total}
            controlId={(control) => variableControlId(variable.uid, control)}
            onMove={(offset) => onMove(index, variable.uid, offset)}
            onRemove={() => onRemove(index)}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <TextInput
            id={variableControlId(variable.uid, 'key')}
            label="Key"
            description={variable.key ? `Written as {{${variable.key}}}` : 'Lower-case letters, digits and _'}
            required
            maxLength={40}
            ff="monospace"
            autoComplete="off"
            spellCheck={false}
            value={variable.key}
            onChange={(event) => update('key', { key: event.currentTarget.value })}
            error={errors.key}
          />
          <TextInput
            label="Label"
            description="The question in the wizard."
            required
            maxLength={PG_LIMITS.label}
            value={variable.label}
            onChange={(event) => update('label', { label: event.currentTarget.value })}
            error={errors.label}
          />
          <Select
            label="Type"
            data={TYPE_OPTIONS}
            allowDeselect={false}
            value={variable.type}
            onChange={(value) => {
              if (!value) return;
              const type = value as VariableType;
              update('type', { type, default: emptyDefault(type) });
            }}
            error={errors.type}
          />
          <DefaultInput
            variable={variable}
            error={errors.default}
            onChange={(value) => update('default', { default: value })}
          />
          <TextInput
            label="Help"
            description="Shown under the question."
            maxLength={PG_LIMITS.help}
            value={variable.help}
            onChange={(event) => update('help', { help: event.currentTarget.value })}
            error={errors.help}
          />
          <Switch
            label="Required"
            description="The policy cannot be sent for review without it."
            checked={variable.required}
            onChange={(event) => update('required', { required: event.currentTarget.checked })}
            error={errors.required}
            mt={{ base: 0, sm: 'lg' }}
          />
        </SimpleGrid>
        {variable.type === 'select' && (
          <TagsInput
            label="Options"
            description="Press Enter after each option."
            required
            maxTags={PG_LIMITS.options}
            maxLength={PG_LIMITS.label}
            value={variable.options}
            onChange={(options) => {
              // A default that is no longer an option goes with it.
              const keep = typeof variable.default === 'string' && options.includes(variable.default);
              update('options', { options, default: keep ? variable.default : null });
            }}
            error={errors.options}
            clearable
          />
        )}
      </Stack>
    </Paper>
  );
});

interface DefaultInputProps {
  variable: VariableRow;
  error: string | undefined;
  onChange: (value: VariableRow['default']) => void;
}

function DefaultInput({ variable, error, onChange }: DefaultInputProps) {
  const description = 'The answer the wizard starts with.';
  switch (variable.type) {
    case 'text':
      return (
        <TextInput
          label="Default"
          description={description}
          maxLength={500}
          value={typeof variable.default === 'string' ? variable.default : ''}
          onChange={(event) => onChange(event.currentTarget.value)}
          error={error}
        />
      );
    case 'date':
      return (
        <TextInput
          type="date"
          label="Default"
          description={description}
          value={typeof variable.default === 'string' ? variable.default : ''}
          onChange={(event) => onChange(event.currentTarget.value || null)}
          error={error}
        />
      );
    case 'select':
      return (
        <Select
          label="Default"
          description={description}
          data={[...new Set(variable.options)]}
          clearable
          placeholder={variable.options.length ? 'No default' : 'Add options first'}
          value={typeof variable.default === 'string' ? variable.default : null}
          onChange={(value) => onChange(value)}
          error={error}
        />
      );
    case 'number':
      return (
        <NumberInput
          label="Default"
          description={description}
          value={typeof variable.default === 'number' ? variable.default : ''}
          onChange={(value) => onChange(typeof value === 'number' ? value : null)}
          error={error}
        />
      );
    case 'boolean':
      return (
        <Switch
          label="Default: yes"
          description={description}
          checked={variable.default === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          error={error}
          mt={{ base: 0, sm: 'lg' }}
        />
      );
    default:
      return (
        <Stack gap={2} justify="center">
          <Text size="sm" fw={500}>
            Default
          </Text>
          <Text size="sm" c="dimmed">
            None: {variable.type === 'department' ? 'departments' : 'people'} are chosen for each policy.
          </Text>
        </Stack>
      );
  }
}
