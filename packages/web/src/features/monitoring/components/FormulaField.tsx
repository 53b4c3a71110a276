import {
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type DatasetColumn,
  type ExpressionError,
  explainExpression,
  type FormulaValidate,
  FUNCTIONS,
  type PeriodGrain,
  parseExpression,
  periodLabel,
} from '@portal/shared';
import { type KeyboardEvent, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { messageFor } from '../../../lib/api';
import { useFormulaValidation } from '../api/measures-formulas';
import { ExpressionErrorMark, formatNumber } from './measure-parts';

type Suggestion =
  | { kind: 'column'; key: string; text: string; label: string }
  | { kind: 'function'; key: string; text: string; label: string; arity: number };

interface FormulaFieldProps {
  projectId: string;
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
  /** Numerator, denominator and value are period expressions (columns inside aggregates); 'row' forbids aggregates. */
  kind: FormulaValidate['role'];
  datasetId: number | null;
  /** The dataset's columns; null while they are not known (no dataset chosen, or still loading). */
  columns: DatasetColumn[] | null;
  grain: PeriodGrain;
  /** Why the last save refused this formula, while the text is the one saved. */
  saveError?: string;
  saveSpans?: ExpressionError[];
  required?: boolean;
  disabled?: boolean;
}

const IDENT_BEFORE = /[A-Za-z_][A-Za-z0-9_]*$/;
const IDENT_AFTER = /^[A-Za-z0-9_]*/;
const MAX_SUGGESTIONS = 8;
const PREVIEW_PERIODS = 6;

/** The identifier being typed at the caret (outside string literals): where it starts and ends, and its text. */
function wordAt(text: string, caret: number): { start: number; end: number; word: string } | null {
  const before = text.slice(0, caret);
  if ((before.match(/'/g)?.length ?? 0) % 2 === 1 || (before.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  const match = IDENT_BEFORE.exec(before);
  if (!match) return null;
  // "1e5" or "2x": not an identifier.
  const start = caret - match[0].length;
  if (start > 0 && /[0-9.]/.test(text[start - 1]!)) return null;
  const rest = IDENT_AFTER.exec(text.slice(caret))?.[0] ?? '';
  return { start, end: caret + rest.length, word: match[0] };
}

/**
 * The expression editor of the formula builder: a text area with suggestions of the dataset's columns and the
 * allowed functions for the word at the caret (arrows, Enter or Tab, Escape, or the mouse), chips that insert at
 * the caret, an instant local check, the server's check as the person types (debounced), the error marked at its
 * characters, the formula in words and its value in the latest periods.
 */
export function FormulaField({
  projectId,
  label,
  description,
  value,
  onChange,
  kind,
  datasetId,
  columns,
  grain,
  saveError,
  saveSpans,
  required,
  disabled,
}: FormulaFieldProps) {
  const id = useId();
  const listId = `${id}-suggestions`;
  const area = useRef<HTMLTextAreaElement>(null);
  const selection = useRef({ start: value.length, end: value.length });
  const pendingCaret = useRef<number | null>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const level = kind === 'row' ? 'row' : 'period';

  const keys = useMemo(() => (columns ?? []).map((column) => column.key), [columns]);
  const labels = useMemo(() => new Map((columns ?? []).map((column) => [column.key, column.label])), [columns]);
  const local = useMemo(
    () => (columns && value.trim() ? parseExpression(value, { columns: keys, level }) : null),
    [columns, keys, level, value],
  );

  // The server checks the text once typing pauses, and only text that passes the local check.
  const [settled] = useDebouncedValue(value, 300);
  const ask =
    datasetId !== null && local?.ok === true && settled === value
      ? { dataset_id: datasetId, role: kind, expression: value, grain }
      : null;
  const check = useFormulaValidation(projectId, ask);
  const server = ask ? check.data : undefined;

  const errors: ExpressionError[] =
    local && !local.ok ? local.errors : server && !server.ok ? server.errors : (saveSpans ?? []);
  const firstError = errors[0];
  const message = firstError?.message ?? saveError;
  const explanation =
    server?.ok && server.explanation ? server.explanation : local?.ok ? explainExpression(local.ast, { labels }) : null;

  const suggestions = useMemo((): Suggestion[] => {
    if (!open || caret === null || disabled) return [];
    const at = wordAt(value, caret);
    if (!at) return [];
    const typed = at.word.toLowerCase();
    const callFollows = value.slice(at.end).trimStart().startsWith('(');
    const found: Suggestion[] = [];
    for (const column of columns ?? []) {
      if (column.key === at.word) continue;
      if (column.key.startsWith(typed) || column.label.toLowerCase().includes(typed))
        found.push({ kind: 'column', key: column.key, text: column.key, label: column.label });
    }
    for (const fn of FUNCTIONS) {
      if (fn.name === at.word && callFollows) continue;
      if (fn.name.toLowerCase().startsWith(typed))
        found.push({
          kind: 'function',
          key: fn.name,
          text: fn.signature,
          label: fn.description,
          arity: fn.arity.max ?? fn.arity.min,
        });
    }
    return found.slice(0, MAX_SUGGESTIONS);
  }, [open, caret, disabled, value, columns]);
  const shown = suggestions.length > 0;
  const current = Math.min(active, Math.max(suggestions.length - 1, 0));

  useLayoutEffect(() => {
    const next = pendingCaret.current;
    if (next === null || !area.current) return;
    pendingCaret.current = null;
    area.current.focus();
    area.current.setSelectionRange(next, next);
    selection.current = { start: next, end: next };
    setCaret(next);
  });

  /** Replaces [from, to) with `text` and puts the caret `caretOffset` characters into it. */
  const replace = (from: number, to: number, text: string, caretOffset = text.length) => {
    pendingCaret.current = from + caretOffset;
    onChange(value.slice(0, from) + text + value.slice(to));
  };
  const callText = (name: string, arity: number) => ({
    text: `${name}()`,
    offset: arity === 0 ? name.length + 2 : name.length + 1,
  });

  const accept = (suggestion: Suggestion) => {
    const at = caret === null ? null : wordAt(value, caret);
    if (!at) return;
    setOpen(false);
    if (suggestion.kind === 'column') {
      replace(at.start, at.end, suggestion.key);
      return;
    }
    // A name already followed by "(" keeps its arguments.
    if (value.slice(at.end).startsWith('(')) {
      replace(at.start, at.end, suggestion.key, suggestion.key.length + 1);
      return;
    }
    const call = callText(suggestion.key, suggestion.arity);
    replace(at.start, at.end, call.text, call.offset);
  };

  const insertAtSelection = (text: string, caretOffset = text.length) => {
    const { start, end } = selection.current;
    setOpen(false);
    replace(Math.min(start, value.length), Math.min(end, value.length), text, caretOffset);
  };

  const remember = () => {
    const element = area.current;
    if (!element) return;
    selection.current = { start: element.selectionStart, end: element.selectionEnd };
    setCaret(element.selectionStart === element.selectionEnd ? element.selectionStart : null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!shown) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      accept(suggestions[current]!);
    } else if (event.key === 'Escape') {
      // Closes the list only, not a surrounding dialog.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  const previewRows = server?.ok ? server.preview.slice(-PREVIEW_PERIODS) : [];

  return (
    <Stack gap={6}>
      <Box pos="relative">
        <Textarea
          ref={area}
          label={label}
          description={
            description ?? (columns ? undefined : 'Choose a dataset to see its columns and check the formula.')
          }
          withAsterisk={required}
          value={value}
          disabled={disabled}
          rows={2}
          resize="vertical"
          maxLength={500}
          spellCheck={false}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          error={message}
          aria-autocomplete="list"
          aria-controls={shown ? listId : undefined}
          aria-activedescendant={shown ? optionId(current) : undefined}
          onChange={(event) => {
            const element = event.currentTarget;
            selection.current = { start: element.selectionStart, end: element.selectionEnd };
            setCaret(element.selectionStart);
            setActive(0);
            setOpen(true);
            onChange(element.value);
          }}
          onSelect={remember}
          onClick={remember}
          onKeyUp={(event) => {
            if (!['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'].includes(event.key)) remember();
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
        />
        {shown && (
          <Paper
            id={listId}
            role="listbox"
            aria-label={`Suggestions for ${label}`}
            shadow="md"
            withBorder
            p={4}
            pos="absolute"
            left={0}
            right={0}
            style={{ zIndex: 20, top: '100%', maxHeight: 280, overflowY: 'auto' }}
          >
            {suggestions.map((suggestion, index) => (
              <UnstyledButton
                key={`${suggestion.kind}-${suggestion.key}`}
                id={optionId(index)}
                role="option"
                aria-selected={index === current}
                tabIndex={-1}
                display="block"
                w="100%"
                px="xs"
                py={4}
                style={{
                  borderRadius: 4,
                  background: index === current ? 'var(--mantine-color-blue-light)' : undefined,
                }}
                // Keeps the caret in the text area (a click would move the focus away first).
                onMouseDown={(event) => {
                  event.preventDefault();
                  accept(suggestion);
                }}
                onMouseEnter={() => setActive(index)}
              >
                <Text size="sm" ff="monospace" span>
                  {suggestion.text}
                </Text>
                <Text size="xs" c="dimmed" span>
                  {' '}
                  {suggestion.kind === 'column' ? `column: ${suggestion.label}` : suggestion.label}
                </Text>
              </UnstyledButton>
            ))}
          </Paper>
        )}
        <VisuallyHidden aria-live="polite">
          {shown
            ? `${suggestions.length} suggestion${suggestions.length === 1 ? '' : 's'}: up and down arrows to choose, Enter to insert, Escape to close.`
            : ''}
        </VisuallyHidden>
      </Box>

      {firstError && value && <ExpressionErrorMark text={value} error={firstError} />}
      {check.isError && ask && (
        <Text size="xs" c="red.8" role="alert">
          The formula could not be checked: {messageFor(check.error, 'the server could not be reached.')}
        </Text>
      )}
      {ask && check.isFetching && !server && (
        <Text size="xs" c="dimmed" role="status">
          Checking the formula…
        </Text>
      )}
      {explanation && !firstError && (
        <Text size="sm" data-explanation>
          <Text span fw={600}>
            In words:{' '}
          </Text>
          {explanation}
        </Text>
      )}
      {previewRows.length > 0 && (
        <Table.ScrollContainer minWidth={240} maw={420}>
          <Table withTableBorder fz="xs" verticalSpacing={2} data-formula-preview>
            <Table.Caption>{label} in the latest periods</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Period</Table.Th>
                <Table.Th scope="col">Value</Table.Th>
                <Table.Th scope="col">Rows</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {previewRows.map((row) => (
                <Table.Tr key={row.period}>
                  <Table.Th scope="row" fw={400}>
                    {periodLabel(row.period, grain)}
                  </Table.Th>
                  <Table.Td>{formatNumber(row.value)}</Table.Td>
                  <Table.Td>{formatNumber(row.rows)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {!disabled && columns && (
        <Stack gap={4}>
          {columns.length > 0 && (
            <Group gap={4} aria-label={`Columns to insert into ${label}`} role="group">
              <Text size="xs" c="dimmed">
                Columns:
              </Text>
              {columns.map((column) => (
                <Tooltip key={column.key} label={column.key} openDelay={300}>
                  <Button
                    size="compact-xs"
                    variant="light"
                    color="teal.9"
                    aria-label={`Insert column ${column.label}`}
                    onClick={() => insertAtSelection(column.key)}
                  >
                    {column.label}
                  </Button>
                </Tooltip>
              ))}
            </Group>
          )}
          <Group gap={4} aria-label={`Functions to insert into ${label}`} role="group">
            <Text size="xs" c="dimmed">
              Functions:
            </Text>
            {FUNCTIONS.filter((fn) => !fn.aliasOf && (level === 'period' || fn.kind === 'scalar')).map((fn) => {
              const call = callText(fn.name, fn.arity.max ?? fn.arity.min);
              return (
                <Tooltip key={fn.name} label={`${fn.signature}: ${fn.description}`} multiline w={260} openDelay={300}>
                  <Button
                    size="compact-xs"
                    variant="default"
                    ff="monospace"
                    aria-label={`Insert function ${fn.signature}`}
                    onClick={() => insertAtSelection(call.text, call.offset)}
                  >
                    {fn.name}
                  </Button>
                </Tooltip>
              );
            })}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
