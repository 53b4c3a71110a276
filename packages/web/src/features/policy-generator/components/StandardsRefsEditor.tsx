import { ActionIcon, Button, Group, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { PG_LIMITS } from '@portal/shared';
import { memo } from 'react';
import { Cross } from '../../../components/list-editor/ReorderControls';
import { ErrorNotice } from '../../../components/page-parts';
import { DEFAULT_FRAMEWORK, type FormErrors, type ListChange, newUid, type StandardRow } from './template-form';
import { useFocusAfterRender } from './VariablesEditor';

interface StandardsRefsEditorProps {
  standards: StandardRow[];
  errors: FormErrors;
  onChange: ListChange<StandardRow>;
}

const refControlId = (uid: string) => `pg-std-${uid}-ref`;

/**
 * The standards elements the template is written to help satisfy (DOMAIN.md 4.2 "standards awareness"): a
 * framework code and an element reference each; a generated draft links to the ones the project has.
 */
export const StandardsRefsEditor = memo(function StandardsRefsEditor({
  standards,
  errors,
  onChange,
}: StandardsRefsEditorProps) {
  const focusLater = useFocusAfterRender();

  function update(index: number, field: 'framework' | 'ref_id', value: string) {
    onChange((rows) => rows.map((s, i) => (i === index ? { ...s, [field]: value } : s)), `standards.${index}.${field}`);
  }

  function add() {
    const framework = standards.at(-1)?.framework.trim() || DEFAULT_FRAMEWORK;
    const row: StandardRow = { uid: newUid('s'), framework, ref_id: '' };
    onChange((rows) => [...rows, row], 'standards');
    focusLater(refControlId(row.uid));
  }

  function remove(index: number) {
    const next = standards.filter((_, i) => i !== index);
    onChange((rows) => rows.filter((_, i) => i !== index), 'standards');
    const neighbour = next[Math.min(index, next.length - 1)];
    focusLater(neighbour ? refControlId(neighbour.uid) : 'pg-add-standard');
  }

  return (
    <Stack gap="sm">
      <ErrorNotice message={errors.standards} />
      {standards.length === 0 && (
        <Text size="sm" c="dimmed">
          No standards linked yet.
        </Text>
      )}
      {standards.map((standard, index) => (
        <Paper key={standard.uid} withBorder radius="md" p="sm" role="group" aria-label={`Standard ${index + 1}`}>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="Framework"
              required
              w={{ base: '100%', xs: 160 }}
              maxLength={40}
              value={standard.framework}
              onChange={(event) => update(index, 'framework', event.currentTarget.value)}
              error={errors[`standards.${index}.framework`]}
            />
            <TextInput
              id={refControlId(standard.uid)}
              label="Element"
              placeholder="§482.42(a)"
              required
              style={{ flex: 1 }}
              miw={180}
              maxLength={80}
              ff="monospace"
              value={standard.ref_id}
              onChange={(event) => update(index, 'ref_id', event.currentTarget.value)}
              error={errors[`standards.${index}.ref_id`]}
            />
            <Tooltip label="Remove" withArrow>
              <ActionIcon
                variant="default"
                color="red.9"
                size="lg"
                mt={{ base: 0, xs: 26 }}
                aria-label={`Remove standard ${index + 1}`}
                onClick={() => remove(index)}
              >
                <Cross />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Paper>
      ))}
      <Group>
        <Button id="pg-add-standard" variant="default" onClick={add} disabled={standards.length >= PG_LIMITS.standards}>
          Add a standard
        </Button>
      </Group>
    </Stack>
  );
});
