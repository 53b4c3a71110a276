import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { Link as LinkExtension, RichTextEditor as MantineRichTextEditor } from '@mantine/tiptap';
import { ALLOWED_URI } from '@portal/shared';
import { TableKit } from '@tiptap/extension-table';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type ReactNode, useEffect, useRef } from 'react';

/** The link schemes the SPEC section 5 sanitiser keeps; anything else would be stripped on save. */
const LINK_PROTOCOLS = ['http', 'https', 'mailto', 'tel'];

export interface RichTextEditorProps {
  /** The HTML shown; '' for an empty document. */
  value: string;
  /** The document as HTML after every change ('' when it is empty). */
  onChange: (html: string) => void;
  /** The visible label; the editable area is named by it. */
  label: string;
  description?: ReactNode;
  error?: ReactNode;
  /** Height of the writing area before it grows with its content. */
  minHeight?: number | string;
  /** Marks the field required in its label. */
  withAsterisk?: boolean;
  /** Adds tables: the content may hold them, and the toolbar inserts a 3 × 3 table and edits its rows and columns. */
  tables?: boolean;
}

/** A link the editor accepts: http(s), mailto, tel or relative, as the sanitiser keeps them. */
export function isAllowedLink(url: string): boolean {
  return ALLOWED_URI.test(url.trim());
}

const EXTENSIONS = [
  // Starter kit 3 bundles Link and Underline. Link comes from Mantine instead (tiptap's extension plus Ctrl+K to open
  // the toolbar's link editor), so the kit's own is switched off rather than registered twice. Code, code blocks and
  // rules have no toolbar control here.
  StarterKit.configure({ link: false, code: false, codeBlock: false, horizontalRule: false }),
  LinkExtension.configure({
    openOnClick: false,
    autolink: true,
    protocols: LINK_PROTOCOLS,
    defaultProtocol: 'https',
    isAllowedUri: (url, ctx) => Boolean(ctx.defaultValidate(url)) && isAllowedLink(url),
    HTMLAttributes: { rel: 'noopener noreferrer' },
  }),
];

// Tables as plain HTML tables (no column-resize handles: widths would be inline styles the content does not keep).
const TABLE_EXTENSIONS = [...EXTENSIONS, TableKit.configure({ table: { resizable: false } })];

/** What the editor holds, in the form onChange reports it. */
function editorHtml(editor: { isEmpty: boolean; getHTML: () => string }): string {
  return editor.isEmpty ? '' : editor.getHTML();
}

/**
 * The rich-text field of the portal (terms, documents): Mantine's tiptap editor with the formatting the SPEC
 * section 5 sanitiser keeps. Controlled: `value` in, `onChange(html)` out. The HTML it produces must still be
 * sanitised wherever it is shown.
 */
export function RichTextEditor({
  value,
  onChange,
  label,
  description,
  error,
  minHeight = '12rem',
  withAsterisk,
  tables = false,
}: RichTextEditorProps) {
  const idBase = useId();
  const labelId = `${idBase}-label`;
  const errorId = `${idBase}-error`;
  const descriptionId = `${idBase}-description`;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const describedBy = [error ? errorId : null, description ? descriptionId : null].filter(Boolean).join(' ');
  const height = typeof minHeight === 'number' ? `${minHeight}px` : minHeight;

  const editor = useEditor({
    extensions: tables ? TABLE_EXTENSIONS : EXTENSIONS,
    content: value,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(error ? { 'aria-invalid': 'true' } : {}),
        style: `min-height: ${height}`,
      },
    },
    onUpdate: ({ editor: current }) => onChangeRef.current(editorHtml(current)),
  });

  // Options are compared on every render, so new attributes (an error appearing) reach the content element.
  // A new value from outside (loaded from the server, reset) replaces the document; the editor's own echo does not.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (value !== editorHtml(editor)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      labelProps={{ id: labelId, onClick: () => editor?.commands.focus() }}
      description={description}
      descriptionProps={{ id: descriptionId }}
      error={error}
      errorProps={{ id: errorId }}
      withAsterisk={withAsterisk}
    >
      <MantineRichTextEditor
        editor={editor}
        mt={4}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
      >
        <MantineRichTextEditor.Toolbar
          sticky
          stickyOffset="var(--app-shell-header-offset, 0rem)"
          role="toolbar"
          aria-label={`${label} formatting`}
        >
          <MantineRichTextEditor.ControlsGroup>
            <MantineRichTextEditor.Bold />
            <MantineRichTextEditor.Italic />
            <MantineRichTextEditor.Underline />
            <MantineRichTextEditor.Strikethrough />
          </MantineRichTextEditor.ControlsGroup>
          <MantineRichTextEditor.ControlsGroup>
            <MantineRichTextEditor.H1 />
            <MantineRichTextEditor.H2 />
            <MantineRichTextEditor.H3 />
          </MantineRichTextEditor.ControlsGroup>
          <MantineRichTextEditor.ControlsGroup>
            <MantineRichTextEditor.BulletList />
            <MantineRichTextEditor.OrderedList />
            <MantineRichTextEditor.Blockquote />
          </MantineRichTextEditor.ControlsGroup>
          <MantineRichTextEditor.ControlsGroup>
            <MantineRichTextEditor.Link />
            <MantineRichTextEditor.Unlink />
          </MantineRichTextEditor.ControlsGroup>
          {tables && (
            <MantineRichTextEditor.ControlsGroup>
              <MantineRichTextEditor.Control
                aria-label="Insert table"
                title="Insert table (3 × 3)"
                disabled={!editor}
                onClick={() => editor?.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
              >
                <TableInsertIcon />
              </MantineRichTextEditor.Control>
              <MantineRichTextEditor.TableRowBefore />
              <MantineRichTextEditor.TableRowAfter />
              <MantineRichTextEditor.TableRowDelete />
              <MantineRichTextEditor.TableColumnBefore />
              <MantineRichTextEditor.TableColumnAfter />
              <MantineRichTextEditor.TableColumnDelete />
              <MantineRichTextEditor.TableToggleHeaderRow />
              <MantineRichTextEditor.TableDelete />
            </MantineRichTextEditor.ControlsGroup>
          )}
          <MantineRichTextEditor.ControlsGroup>
            <MantineRichTextEditor.Undo />
            <MantineRichTextEditor.Redo />
          </MantineRichTextEditor.ControlsGroup>
        </MantineRichTextEditor.Toolbar>
        <MantineRichTextEditor.Content />
      </MantineRichTextEditor>
    </Input.Wrapper>
  );
}

/** A table with a plus sign, drawn like the toolbar's other icons. */
function TableInsertIcon() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      strokeWidth={1.5}
      stroke="currentColor"
      fill="none"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M12.5 21h-7.5a2 2 0 0 1 -2 -2v-14a2 2 0 0 1 2 -2h14a2 2 0 0 1 2 2v7.5" />
      <path d="M3 10h18" />
      <path d="M10 3v18" />
      <path d="M16 19h6" />
      <path d="M19 16v6" />
    </svg>
  );
}
