import { Accordion, Button, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import {
  checkTemplate,
  PROFILE_FLAGS,
  PROFILE_NAME_LABELS,
  PROFILE_VARIABLES,
  TEMPLATE_NAME_PATTERN,
  TEMPLATE_SECTION_TITLES,
  TEMPLATE_SECTIONS,
  type TemplateSectionKey,
} from '@portal/shared';
import type { TiptapEditorHTMLElement } from '@tiptap/react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { RichTextEditor } from '../../../components/RichTextEditor';
import {
  type FormErrors,
  knownNames,
  type ListChange,
  type SectionRow,
  sortSections,
  type VariableRow,
} from './template-form';

interface SectionsEditorProps {
  sections: SectionRow[];
  variables: VariableRow[];
  errors: FormErrors;
  onChange: ListChange<SectionRow>;
}

const addButtonId = (key: TemplateSectionKey) => `pg-add-section-${key}`;

/** Where each section's editable area is, so a name can be inserted at its cursor. */
function editorIn(wrapper: HTMLElement | null | undefined) {
  return wrapper?.querySelector<TiptapEditorHTMLElement>('[contenteditable="true"]')?.editor ?? null;
}

type NameKind = 'variable' | 'date' | 'flag';

const PROFILE_NAME_ITEMS = PROFILE_VARIABLES.map((name) => ({
  name,
  label: PROFILE_NAME_LABELS[name] ?? name,
  kind: 'variable' as NameKind,
}));
const FLAG_NAME_ITEMS = PROFILE_FLAGS.map((name) => ({
  name,
  label: PROFILE_NAME_LABELS[name] ?? name,
  kind: 'flag' as NameKind,
}));

/**
 * The sections of a template, one rich-text editor each in the fixed order, with the syntax help, the names a
 * section may use (a click inserts one at the cursor of the section last edited) and each section's problems as
 * `checkTemplate` finds them while typing.
 */
export const SectionsEditor = memo(function SectionsEditor({
  sections,
  variables,
  errors,
  onChange,
}: SectionsEditorProps) {
  const wrappers = useRef(new Map<TemplateSectionKey, HTMLElement>());
  const [active, setActive] = useState<TemplateSectionKey | null>(null);
  const [focusTarget, setFocusTarget] = useState<{ kind: 'editor' | 'add'; key: TemplateSectionKey } | null>(null);
  // The names a section may use change only with the variables' keys, not with every keystroke in a section.
  const keys = JSON.stringify(variables.map((v) => v.key));
  const known = useMemo(() => knownNames((JSON.parse(keys) as string[]).map((key) => ({ key }))), [keys]);
  const present = new Set(sections.map((s) => s.key));
  const missing = TEMPLATE_SECTIONS.filter((key) => !present.has(key));
  const target = active && present.has(active) ? active : (sections[0]?.key ?? null);

  useEffect(() => {
    if (!focusTarget) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    const attempt = () => {
      if (focusTarget.kind === 'add') {
        document.getElementById(addButtonId(focusTarget.key))?.focus();
        setFocusTarget(null);
        return;
      }
      // A new section's editor may start after this render (slow machine): wait for it rather than lose the focus.
      const editor = editorIn(wrappers.current.get(focusTarget.key));
      if (editor) editor.commands.focus('end');
      if (editor || ++tries >= 50) setFocusTarget(null);
      else timer = setTimeout(attempt, 20);
    };
    attempt();
    return () => clearTimeout(timer);
  }, [focusTarget]);

  const register = useCallback((key: TemplateSectionKey, element: HTMLElement | null) => {
    if (element) wrappers.current.set(key, element);
    else wrappers.current.delete(key);
  }, []);

  function add(key: TemplateSectionKey) {
    onChange((rows) => sortSections([...rows, { key, html: '' }]), 'sections');
    setActive(key);
    setFocusTarget({ kind: 'editor', key });
  }

  const remove = useCallback(
    (key: TemplateSectionKey) => {
      onChange((rows) => rows.filter((s) => s.key !== key), 'sections');
      setActive((current) => (current === key ? null : current));
      setFocusTarget({ kind: 'add', key });
    },
    [onChange],
  );

  /** Inserts at the cursor of the section last edited (the first one when none was). */
  const insert = useCallback(
    (name: string, kind: NameKind) => {
      const editor = target ? editorIn(wrappers.current.get(target)) : null;
      if (!editor) return;
      if (kind === 'flag') {
        // Around the selection: {{#if flag}}selected text{{/if}}.
        const { from, to } = editor.state.selection;
        editor.chain().focus().insertContentAt(to, '{{/if}}').insertContentAt(from, `{{#if ${name}}}`).run();
      } else {
        editor
          .chain()
          .focus()
          .insertContent(kind === 'date' ? `{{${name}|date}}` : `{{${name}}}`)
          .run();
      }
    },
    [target],
  );

  const ownNames = useMemo(
    () =>
      variables
        .filter((v) => TEMPLATE_NAME_PATTERN.test(v.key))
        .map((v) => ({
          name: v.key,
          label: v.label.trim() || v.key,
          kind: (v.type === 'date' ? 'date' : 'variable') as NameKind,
        })),
    [variables],
  );

  return (
    <Stack gap="md">
      <Accordion variant="contained" radius="md" defaultValue="help">
        <Accordion.Item value="help">
          <Accordion.Control>Placeholders and the names you can use</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="sm">
              <List size="sm" spacing={4}>
                <List.Item>
                  <Code>{'{{name}}'}</Code> the value of a question or of the facility profile.
                </List.Item>
                <List.Item>
                  <Code>{'{{name|date}}'}</Code> a date written out, e.g. March 5, 2026.
                </List.Item>
                <List.Item>
                  <Code>{'{{#if flag}}'}</Code> … <Code>{'{{/if}}'}</Code> text kept only when the flag or answer is
                  set; <Code>{'{{#unless flag}}'}</Code> … <Code>{'{{/unless}}'}</Code> only when it is not.
                </List.Item>
                <List.Item>
                  A condition opens and closes inside one paragraph, or around whole paragraphs (a paragraph holding
                  only the marker).
                </List.Item>
              </List>
              <Text size="sm" c="dimmed">
                {target
                  ? `Click a name to insert it into ${TEMPLATE_SECTION_TITLES[target]} at the cursor; a flag goes around the selected text.`
                  : 'Add a section to insert names into it.'}
              </Text>
              <NameGroup
                title="This template's questions"
                empty="Add questions under Variables to use them here."
                names={ownNames}
                disabled={!target}
                onInsert={insert}
              />
              <NameGroup title="Facility profile" names={PROFILE_NAME_ITEMS} disabled={!target} onInsert={insert} />
              <NameGroup title="Flags (for conditions)" names={FLAG_NAME_ITEMS} disabled={!target} onInsert={insert} />
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>

      <ErrorNotice message={errors.sections} />

      {sections.map((section, index) => (
        <SectionCard
          key={section.key}
          section={section}
          index={index}
          known={known}
          serverError={
            errors[`sections.${index}.html`] ?? errors[`sections.${index}.key`] ?? errors[`sections.${index}`]
          }
          removable={sections.length > 1}
          onChange={onChange}
          onRemove={remove}
          onActive={setActive}
          register={register}
        />
      ))}

      {missing.length > 0 && (
        <Stack gap={6}>
          <Title order={3} fz="sm" id="pg-add-section-title">
            Add a section
          </Title>
          <Group gap="xs" role="group" aria-labelledby="pg-add-section-title">
            {missing.map((key) => (
              <Button key={key} id={addButtonId(key)} variant="default" size="compact-sm" onClick={() => add(key)}>
                + {TEMPLATE_SECTION_TITLES[key]}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
    </Stack>
  );
});

interface SectionCardProps {
  section: SectionRow;
  index: number;
  known: ReadonlySet<string>;
  serverError: string | undefined;
  removable: boolean;
  onChange: ListChange<SectionRow>;
  onRemove: (key: TemplateSectionKey) => void;
  onActive: (key: TemplateSectionKey) => void;
  register: (key: TemplateSectionKey, element: HTMLElement | null) => void;
}

/** One section: its editor, and its problems (the live check first, else the server's message). */
const SectionCard = memo(function SectionCard({
  section,
  index,
  known,
  serverError,
  removable,
  onChange,
  onRemove,
  onActive,
  register,
}: SectionCardProps) {
  const { key, html } = section;
  const problems = useMemo(() => checkTemplate(html, known), [html, known]);
  const shown = problems.length > 0 ? problems : serverError ? [serverError] : [];
  const title = TEMPLATE_SECTION_TITLES[key];
  const setHtml = useCallback(
    (next: string) =>
      onChange((rows) => rows.map((s) => (s.key === key ? { ...s, html: next } : s)), `sections.${index}`),
    [onChange, key, index],
  );
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      data-section={key}
      ref={(element: HTMLDivElement | null) => register(key, element)}
      onFocus={() => onActive(key)}
    >
      <Stack gap="xs">
        <Group justify="flex-end" gap="xs">
          <Button
            variant="subtle"
            color="red.8"
            size="compact-sm"
            disabled={!removable}
            onClick={() => onRemove(key)}
            aria-label={`Remove the section ${title}`}
          >
            Remove section
          </Button>
        </Group>
        <RichTextEditor
          label={title}
          value={html}
          onChange={setHtml}
          minHeight="8rem"
          tables
          error={
            shown.length > 0 ? (
              <span data-testid={`pg-problems-${key}`}>
                {shown.map((message) => (
                  <span key={message} style={{ display: 'block' }}>
                    {message}
                  </span>
                ))}
              </span>
            ) : undefined
          }
        />
      </Stack>
    </Paper>
  );
});

interface NameGroupProps {
  title: string;
  empty?: string;
  names: readonly { name: string; label: string; kind: NameKind }[];
  disabled: boolean;
  onInsert: (name: string, kind: NameKind) => void;
}

const NameGroup = memo(function NameGroup({ title, empty, names, disabled, onInsert }: NameGroupProps) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {names.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Group gap={6}>
          {names.map(({ name, label, kind }) => {
            const written = kind === 'flag' ? `{{#if ${name}}}` : kind === 'date' ? `{{${name}|date}}` : `{{${name}}}`;
            return (
              <Button
                key={name}
                variant="light"
                color="gray"
                size="compact-xs"
                ff="monospace"
                tt="none"
                fw={500}
                title={label}
                aria-label={`Insert ${written} (${label})`}
                disabled={disabled}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => onInsert(name, kind)}
              >
                {written}
              </Button>
            );
          })}
        </Group>
      )}
    </Stack>
  );
});
