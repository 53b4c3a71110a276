import { describe, expect, it } from 'vitest';
import { installEditorLayoutStubs } from '../../../components/RichTextEditor.testing';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import {
  API,
  detail,
  globalTemplate,
  openTemplate,
  PAGE,
  seriousViolations,
  server,
  V1,
  where,
} from './template-test-fixtures';

installEditorLayoutStubs();

/** The editor screen holds three rich-text editors and dozens of fields: long journeys need more than 20 s on a busy CI. */
const SLOW_TEST_MS = 45_000;

const preview = () => document.querySelector<HTMLElement>('section[aria-label^="Preview of version"]');
const marks = () => [...document.querySelectorAll('mark.pg-unresolved')].map((mark) => mark.textContent);
const hasControl = (name: string) =>
  [...document.querySelectorAll('a, button')].some((element) => element.textContent?.trim() === name);

describe('TemplatePage', () => {
  it('shows the published version rendered with the profile, open placeholders marked, and what it asks', async () => {
    server(detail());
    await openTemplate(`${PAGE}/5`);
    await waitFor(() => expect(preview()).not.toBeNull());
    expect(document.querySelector('h2')?.textContent).toBe('Hand hygiene');
    expect(document.title).toContain('Hand hygiene');
    const badges = text(document.querySelector('[data-testid="pg-badges"]')!);
    expect(badges).toContain('This project');
    expect(badges).toContain('Copied from Hand hygiene (library)');
    expect(badges).toContain('v2');
    expect(badges).not.toContain('Draft');

    // Sections in their fixed order, profile values in, defaults as sample answers, flags off leave text out.
    const shown = text(preview()!);
    expect(shown.indexOf('Purpose')).toBeLessThan(shown.indexOf('Policy'));
    expect(shown).toContain('North Valley Hospital prevents infections.');
    expect(shown).toContain('led by the Infection Preventionist');
    expect(shown).toContain('Audits start March 5, 2026');
    expect(shown).toContain('with WHO.');
    expect(shown).not.toContain('Newborn care');
    // A department has no default and the profile has no address: both stay open, highlighted.
    expect(marks()).toEqual(['{{department}}', '{{facility_address}}']);
    expect(text()).toContain('Filled in when the policy is generated: Department, Address');

    const variables = text(document.querySelector('[data-testid="pg-variables"]')!);
    expect(variables).toContain('Department');
    expect(variables).toContain('The department that owns the policy.');
    expect(variables).toContain('Choice from a list');
    expect(variables).toContain('WHO · Custom');
    expect(variables).toContain('Default: 2026-03-05');
    const standards = text(document.querySelector('[data-testid="pg-standards"]')!);
    expect(standards).toContain('CMS-482 §482.42(a) Infection prevention program');
    expect(standards).toContain('TJC-HAP IC.02.01.01');
    expect(standards).not.toContain('TJC-HAP IC.02.01.01 ');

    const versions = text(document.querySelector('[data-testid="pg-versions"]')!);
    expect(versions).toContain('Version 2 Published');
    expect(versions).toContain('Adds the audit tool.');
    expect(versions).toContain('Version 1 Retired');
    expect(versions).toContain('by Ana Ruiz');

    expect(getControl('Use template').getAttribute('href')).toBe(`${PAGE}/5/generate`);
    expect(getControl('Edit draft')).toBeDefined();
    expect(await seriousViolations()).toEqual([]);
  });

  it('shows an earlier version when it is picked in the history', async () => {
    const api = server(detail(), { [`GET ${API}/templates/5/versions/501`]: jsonResponse(V1) });
    await openTemplate(`${PAGE}/5`);
    await waitFor(() => expect(preview()).not.toBeNull());
    const first = [...document.querySelectorAll<HTMLElement>('[data-testid="pg-versions"] button')].find((button) =>
      button.textContent?.includes('Version 1'),
    )!;
    await click(first);
    await waitFor(() => expect(text(preview()!)).toContain('The first wording for NVH.'));
    expect(preview()!.getAttribute('aria-label')).toBe('Preview of version 1');
    expect(first.getAttribute('aria-pressed')).toBe('true');
    expect(api.calls(`GET ${API}/templates/5/versions/501`)).toHaveLength(1);
    expect(text()).toContain('This template asks nothing beyond the facility profile.');

    await click(getControl('Show version 2'));
    await waitFor(() => expect(text(preview()!)).toContain('North Valley Hospital prevents infections.'));
  });

  it(
    'offers "Copy to edit" on a library template to editors, and opens the copy in the editor',
    async () => {
      const copy = detail({ id: 77, derived_from: { id: 1, title: 'Hand hygiene' } });
      const api = server(globalTemplate(), {
        [`POST ${API}/templates`]: jsonResponse(copy, 201),
        [`GET ${API}/templates/77`]: jsonResponse(copy),
      });
      const router = await openTemplate(`${PAGE}/1`);
      await waitFor(() => getControl('Copy to edit'));
      expect(text(document.querySelector('[data-testid="pg-badges"]')!)).toContain('Library');
      expect(hasControl('Edit draft')).toBe(false);
      expect(hasControl('Open draft')).toBe(false);

      await click(getControl('Copy to edit'));
      await waitFor(() =>
        expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`${PAGE}/77?mode=edit`),
      );
      await waitFor(() => expect(document.querySelector('[contenteditable="true"]')).not.toBeNull());
      expect(document.querySelector('h2')?.textContent).toBe('Edit: Hand hygiene');
      expect(api.calls(`POST ${API}/templates`).map((call) => call.body)).toEqual([{ copy_of: 1 }]);
    },
    SLOW_TEST_MS,
  );

  it('shows why a copy failed (the project already has one)', async () => {
    const message = 'This project already has a copy of this template: Hand hygiene.';
    server(globalTemplate(), { [`POST ${API}/templates`]: jsonResponse({ message }, 409) });
    await openTemplate(`${PAGE}/1`);
    await waitFor(() => getControl('Copy to edit'));
    await click(getControl('Copy to edit'));
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toContain(message));
    expect(where()).toBeNull();
  });

  it('offers neither copying nor editing to someone who may not edit templates', async () => {
    server(globalTemplate({ can_edit: false }));
    await openTemplate(`${PAGE}/1`);
    await waitFor(() => expect(preview()).not.toBeNull());
    expect(hasControl('Use template')).toBe(true);
    expect(hasControl('Copy to edit')).toBe(false);
    expect(hasControl('Edit draft')).toBe(false);
  });

  it('does not open the editor by its address for someone who may not edit', async () => {
    server(detail({ can_edit: false }));
    await openTemplate(`${PAGE}/5?mode=edit`);
    await waitFor(() => expect(preview()).not.toBeNull());
    expect(document.querySelector('[contenteditable="true"]')).toBeNull();
    expect(hasControl('Edit draft')).toBe(false);
  });

  it('says when a template does not exist', async () => {
    server(detail(), { [`GET ${API}/templates/9`]: jsonResponse({ message: 'Not found.' }, 404) });
    await openTemplate(`${PAGE}/9`);
    await waitFor(() => expect(text()).toContain('This template does not exist, or this project cannot use it.'));
  });
});
