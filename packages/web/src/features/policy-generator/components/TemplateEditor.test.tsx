import { describe, expect, it } from 'vitest';
import { editorContent, installEditorLayoutStubs, typeInEditor } from '../../../components/RichTextEditor.testing';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BODY,
  detail,
  dialog,
  errorOf,
  field,
  group,
  labelled,
  openTemplate,
  PAGE,
  pick,
  seriousViolations,
  server,
  toasts,
  V3_DRAFT,
  version,
  where,
  withDraft,
} from './template-test-fixtures';

installEditorLayoutStubs();

/** The editor screen holds three rich-text editors and dozens of fields: long journeys need more than 20 s on a busy CI. */
const SLOW_TEST_MS = 45_000;

const DRAFT = `${API}/templates/5/draft`;
const PUBLISH = `${API}/templates/5/publish`;
const UNSAVED = 'You have unsaved changes';

const preview = () => document.querySelector<HTMLElement>('section[aria-label="Preview of the draft"]')!;
const location = (router: Awaited<ReturnType<typeof openTemplate>>) =>
  `${router.state.location.pathname}${router.state.location.search}`;

async function openEditor(path = `${PAGE}/5?mode=edit`) {
  const router = await openTemplate(path);
  await waitFor(() => expect(text(editorContent('Purpose'))).toContain('prevents infections.'));
  return router;
}

describe('TemplateEditor', () => {
  it(
    'edits the draft and saves the whole body, a new variable included',
    async () => {
      const api = server(withDraft(), { [`PUT ${DRAFT}`]: () => jsonResponse(withDraft()) });
      await openEditor();
      expect(document.querySelector('h2')?.textContent).toBe('Edit: Hand hygiene');
      expect(text()).toContain('Draft of version 3');
      expect(text()).not.toContain(UNSAVED);
      // The sections in their fixed order, whatever order the server sent them in.
      const order = [...document.querySelectorAll('[data-section]')].map((element) =>
        element.getAttribute('data-section'),
      );
      expect(order).toEqual(['purpose', 'policy', 'procedure']);
      expect(text(preview())).toContain('North Valley Hospital prevents infections.');

      await click(getControl('Add a variable'));
      const row = group('Variable 4');
      expect(document.activeElement).toBe(field('Key', row));
      await typeInto(field('Key', row), 'approver');
      await typeInto(field('Label', row), 'Approving committee');
      await typeInto(field('Default', row), 'Infection Control Committee');
      await click(field('Required', row));
      await typeInEditor(editorContent('Purpose'), 'The {{approver}} approves this policy.');
      expect(text()).toContain(UNSAVED);
      await waitFor(() => expect(text(preview())).toContain('The Infection Control Committee approves this policy.'));

      await click(labelled('Remove standard 2'));
      await click(getControl('Add a standard'));
      await typeInto(field('Element', group('Standard 2')), ' §482.42(b) ');

      await click(getControl('Save draft'));
      await waitFor(() => expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1));
      expect(api.calls(`PUT ${DRAFT}`)[0]!.body).toEqual({
        title: BODY.title,
        category: BODY.category,
        description: BODY.description,
        requires_flags: [],
        sections: [
          { key: 'purpose', html: '<p>The {{approver}} approves this policy.</p>' },
          BODY.sections[0],
          BODY.sections[2],
        ],
        variables: [
          ...BODY.variables,
          {
            key: 'approver',
            label: 'Approving committee',
            type: 'text',
            required: true,
            default: 'Infection Control Committee',
            help: '',
            options: [],
          },
        ],
        standards: [
          { framework: 'CMS-482', ref_id: '§482.42(a)' },
          { framework: 'CMS-482', ref_id: '§482.42(b)' },
        ],
      });
      await waitFor(() => expect(toasts()).toContain('Draft saved.'));
      expect(text()).not.toContain(UNSAVED);
    },
    SLOW_TEST_MS,
  );

  it(
    'has no serious accessibility violations',
    async () => {
      server(withDraft());
      await openEditor();
      expect(await seriousViolations()).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it('shows a condition left open under its section, and does not save it', async () => {
    const api = server(withDraft(), { [`PUT ${DRAFT}`]: () => jsonResponse(withDraft()) });
    await openEditor();
    await typeInEditor(editorContent('Purpose'), '{{#if has_ob}} Newborns are bathed after six hours.');
    const problems = () => document.querySelector('[data-testid="pg-problems-purpose"]')?.textContent ?? '';
    await waitFor(() => expect(problems()).toContain('{{#if has_ob}} is never closed: add {{/if}}.'));
    expect(editorContent('Purpose').getAttribute('aria-invalid')).toBe('true');

    await click(getControl('Save draft'));
    await waitFor(() => expect(text()).toContain('The draft was not saved: fix the problems marked below.'));
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(0);

    // Unknown names are problems too; closing the condition clears them.
    await typeInEditor(editorContent('Purpose'), '{{#if has_ob}}Newborns{{/if}} by {{nobody}}.');
    await waitFor(() => expect(problems()).toBe('{{nobody}} is not a variable of this template.'));
    await typeInEditor(editorContent('Purpose'), '{{#if has_ob}}Newborns are bathed.{{/if}}');
    await waitFor(() => expect(problems()).toBe(''));
    await click(getControl('Save draft'));
    await waitFor(() => expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1));
  });

  it('checks variables before saving: a key the profile owns, a choice without options', async () => {
    const api = server(withDraft());
    await openEditor();
    await typeInto(field('Key', group('Variable 2')), 'facility_name');
    await click(getControl('Add a variable'));
    const row = group('Variable 4');
    await typeInto(field('Key', row), 'unit');
    await typeInto(field('Label', row), 'Unit');
    await pick('Type', 'Choice from a list', row);
    await click(getControl('Save draft'));
    await waitFor(() =>
      expect(errorOf('Key', group('Variable 2'))).toBe('This key belongs to the facility profile; choose another.'),
    );
    expect(errorOf('Options', group('Variable 4'))).toBe('A choice needs at least one option.');
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(0);
  });

  it("shows the server's field errors at their fields", async () => {
    const message = 'The template could not be saved.';
    server(withDraft(), {
      [`PUT ${DRAFT}`]: jsonResponse(
        {
          message,
          errors: {
            'variables.0.key': ['Another template variable already uses this key.'],
            'standards.1.ref_id': ['No such element in TJC-HAP.'],
            'sections.1.html': ['The section holds markup that is not allowed.'],
            title: ['A template of this project already has this title.'],
          },
        },
        422,
      ),
    });
    await openEditor();
    await typeInto(field('Title'), 'Hand hygiene (ours)');
    await click(getControl('Save draft'));
    await waitFor(() =>
      expect(errorOf('Key', group('Variable 1'))).toBe('Another template variable already uses this key.'),
    );
    expect(errorOf('Element', group('Standard 2'))).toBe('No such element in TJC-HAP.');
    expect(errorOf('Title')).toBe('A template of this project already has this title.');
    expect(document.querySelector('[data-testid="pg-problems-policy"]')?.textContent).toBe(
      'The section holds markup that is not allowed.',
    );
    expect(text(document.querySelector('[role="alert"]')!)).toContain(message);
    expect(text()).toContain(UNSAVED);

    // Changing the field clears its message.
    await typeInto(field('Key', group('Variable 1')), 'owning_department');
    expect(errorOf('Key', group('Variable 1'))).toBeNull();
  });

  it('requires a note to publish once a version was published, then returns to the template', async () => {
    const published = withDraft({
      working: null,
      draft: null,
      current: version({ id: 503, version: 3, note: 'Adds OB.' }),
      published: { id: 503, version: 3, published_at: '2026-03-01T10:00:00Z' },
    });
    const api = server(withDraft(), {
      [`POST ${PUBLISH}`]: [
        jsonResponse({ message: 'The note is too vague.', errors: { note: ['Say what changed.'] } }, 400),
        jsonResponse(published),
      ],
    });
    const router = await openEditor();
    await click(getControl('Publish…'));
    await waitFor(() => dialog());
    expect(dialog().textContent).toContain('Publish version 3');
    await click(getControl('Publish', dialog()));
    expect(errorOf('What changed', dialog())).toBe('Describe what changed since the last published version.');
    expect(api.calls(`POST ${PUBLISH}`)).toHaveLength(0);

    await typeInto(field('What changed', dialog()), 'Misc.');
    await click(getControl('Publish', dialog()));
    await waitFor(() => expect(errorOf('What changed', dialog())).toBe('Say what changed.'));

    await typeInto(field('What changed', dialog()), '  Adds OB.  ');
    await click(getControl('Publish', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 3 published.'));
    expect(api.calls(`POST ${PUBLISH}`).map((call) => call.body)).toEqual([{ note: 'Misc.' }, { note: 'Adds OB.' }]);
    await waitFor(() => expect(location(router)).toBe(`${PAGE}/5`));
    expect(document.querySelector('[contenteditable="true"]')).toBeNull();
  });

  it('publishes a first version without a note, saving pending changes first', async () => {
    const draftOnly = detail({
      current: null,
      published: null,
      draft: { id: 503, version: 1 },
      versions: [{ id: 503, version: 1, status: 'draft', note: '', published: null }],
      working: { ...V3_DRAFT, version: 1 },
    });
    const order: string[] = [];
    const record = (name: string) => () => {
      order.push(name);
      return jsonResponse(detail({ current: version({ id: 503, version: 1 }) }));
    };
    const api = server(draftOnly, { [`PUT ${DRAFT}`]: record('save'), [`POST ${PUBLISH}`]: record('publish') });
    await openEditor();
    await typeInto(field('Title'), 'Hand hygiene at NVH');
    await click(getControl('Publish…'));
    await waitFor(() => dialog());
    expect(dialog().textContent).toContain('Your unsaved changes are saved first.');
    await click(getControl('Publish', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 1 published.'));
    expect(order).toEqual(['save', 'publish']);
    expect((api.calls(`PUT ${DRAFT}`)[0]!.body as { title: string }).title).toBe('Hand hygiene at NVH');
    expect(api.calls(`POST ${PUBLISH}`)[0]!.body).toEqual({ note: '' });
  });

  it('discards the draft only after confirmation', async () => {
    const api = server(withDraft(), { [`DELETE ${DRAFT}`]: new Response(null, { status: 204 }) });
    const router = await openEditor();
    await click(getControl('Discard draft'));
    await waitFor(() => dialog());
    expect(dialog().textContent).toContain('The draft (version 3) and all its changes are removed.');
    expect(dialog().textContent).toContain('Version 2 stays published.');
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`DELETE ${DRAFT}`)).toHaveLength(0);
    expect(location(router)).toBe(`${PAGE}/5?mode=edit`);

    await click(getControl('Discard draft'));
    await waitFor(() => dialog());
    await click(getControl('Discard draft', dialog()));
    await waitFor(() => expect(toasts()).toContain('The draft was discarded.'));
    expect(api.calls(`DELETE ${DRAFT}`)).toHaveLength(1);
    await waitFor(() => expect(location(router)).toBe(`${PAGE}/5`));
  });

  it('deletes a template never published with its draft, and goes back to the gallery', async () => {
    const draftOnly = detail({
      current: null,
      published: null,
      draft: { id: 503, version: 1 },
      versions: [{ id: 503, version: 1, status: 'draft', note: '', published: null }],
      working: { ...V3_DRAFT, version: 1 },
    });
    const api = server(draftOnly, { [`DELETE ${DRAFT}`]: new Response(null, { status: 204 }) });
    await openEditor();
    // Unsaved changes do not stop the way out once the author confirmed.
    await typeInto(field('Category'), 'Infection control');
    await click(getControl('Discard draft'));
    await waitFor(() => dialog());
    expect(dialog().textContent).toContain('discarding its draft deletes the template');
    await click(getControl('Delete the template', dialog()));
    await waitFor(() => expect(where()).toBe('/app/policy_generator'));
    expect(api.calls(`DELETE ${DRAFT}`)).toHaveLength(1);
    expect(toasts()).toContain('The template was deleted.');
  });

  it('asks before leaving with unsaved changes', async () => {
    server(withDraft());
    const router = await openEditor();
    await typeInto(field('Description'), 'Changed.');
    await click(getControl('Close editor'));
    await waitFor(() => expect(dialog().textContent).toContain('Leave without saving?'));
    await click(getControl('Stay on this page', dialog()));
    expect(location(router)).toBe(`${PAGE}/5?mode=edit`);
    expect(field('Description').value).toBe('Changed.');

    await click(getControl('Close editor'));
    await waitFor(() => getControl('Leave', dialog()));
    await click(getControl('Leave', dialog()));
    await waitFor(() => expect(location(router)).toBe(`${PAGE}/5`));
  });

  it('inserts a name at the cursor of the section last edited, and adds and removes sections', async () => {
    server(withDraft());
    await openEditor();
    await click(labelled('Insert {{audit_tool}} (Audit tool)'));
    await waitFor(() => expect(text(editorContent('Purpose'))).toContain('{{audit_tool}}'));

    await click(getControl('+ Scope'));
    await waitFor(() => expect(document.activeElement).toBe(editorContent('Scope')));
    const order = [...document.querySelectorAll('[data-section]')].map((element) =>
      element.getAttribute('data-section'),
    );
    expect(order).toEqual(['purpose', 'scope', 'policy', 'procedure']);
    await click(labelled('Insert {{facility_state}} (State)'));
    await waitFor(() => expect(text(editorContent('Scope'))).toContain('{{facility_state}}'));

    await click(labelled('Remove the section Scope'));
    expect(document.querySelector('[data-section="scope"]')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(getControl('+ Scope')));
  });
});
