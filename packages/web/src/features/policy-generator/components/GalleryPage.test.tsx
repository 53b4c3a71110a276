import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { dialog, field, pick, seriousViolations } from '../../../test/ui';
import { BASE, detail, generatorRoutes, openGenerator, PG_API, profile, summary } from './pg-test-fixtures';

afterEach(() => localStorage.clear());

const TEMPLATES = [
  summary({
    id: 1,
    title: 'Hand hygiene',
    category: 'Infection prevention',
    description: 'Washing and sanitising hands.',
    standards: [
      { framework: 'CMS', ref_id: '§482.42(a)' },
      { framework: 'TJC', ref_id: 'IC.02.01.01' },
    ],
    published: { id: 11, version: 2, published_at: '2026-02-01T10:00:00Z' },
  }),
  summary({
    id: 2,
    title: 'Newborn security',
    category: 'Obstetrics',
    description: 'Infant abduction drills.',
    scope: 'project',
    requires_flags: ['has_ob', 'accreditor_dnv'],
    fits_profile: false,
    draft: { id: 21, version: 2 },
  }),
  summary({
    id: 3,
    title: 'Restraint use',
    category: 'Nursing',
    description: 'When restraints may be used.',
    standards: [{ framework: 'CMS', ref_id: '482.13(e)' }],
  }),
];

const titles = () => [...document.querySelectorAll('[data-template-id] h3')].map((el) => el.textContent);
const card = (id: number) => document.querySelector<HTMLElement>(`[data-template-id="${id}"]`)!;

function server(extra: Parameters<typeof generatorRoutes>[0] = {}, canEdit = false) {
  return stubApi(
    generatorRoutes({
      [`GET ${PG_API}/templates`]: jsonResponse({ templates: TEMPLATES, can_edit: canEdit }),
      ...extra,
    }),
  );
}

describe('GalleryPage', () => {
  it('shows each template with its badges and links', async () => {
    server({}, true);
    await openGenerator(BASE);
    await waitFor(() => expect(titles()).toEqual(['Hand hygiene', 'Newborn security', 'Restraint use']));
    expect(card(1).textContent).toContain('Library');
    expect(card(1).textContent).toContain('Fits your profile');
    expect(card(1).textContent).toContain('v2');
    expect(card(1).textContent).toContain('2 standards');
    expect(card(2).textContent).toContain('This project');
    expect(card(2).textContent).not.toContain('Fits your profile');
    expect(card(2).textContent).toContain('Draft');
    expect(getControl('Use template', card(1)).getAttribute('href')).toBe(`${BASE}/templates/1/generate`);
    expect(getControl('Open', card(1)).getAttribute('href')).toBe(`${BASE}/templates/1`);
    expect(await seriousViolations()).toEqual([]);
  });

  it('hides drafts from members who cannot edit templates', async () => {
    server();
    await openGenerator(BASE);
    await waitFor(() => expect(titles()).toHaveLength(3));
    expect(card(2).textContent).not.toContain('Draft');
    expect(() => getControl('New template')).toThrow();
  });

  it('filters by words, department, standard, accreditor and profile fit, with an empty state', async () => {
    server();
    await openGenerator(BASE);
    await waitFor(() => expect(titles()).toHaveLength(3));

    await typeInto(field('Search'), 'abduction');
    expect(titles()).toEqual(['Newborn security']);
    await typeInto(field('Search'), '');

    await typeInto(field('Standard'), '482.42');
    expect(titles()).toEqual(['Hand hygiene']);
    await typeInto(field('Standard'), '§ 482.13');
    expect(titles()).toEqual(['Restraint use']);
    await typeInto(field('Standard'), '');

    await pick('Department', 'Nursing');
    expect(titles()).toEqual(['Restraint use']);
    expect(text()).toContain('1 template of 3');
  });

  it('keeps only the templates that fit the profile, and offers to clear filters when nothing matches', async () => {
    server();
    await openGenerator(BASE);
    await waitFor(() => expect(titles()).toHaveLength(3));

    await click(field('Fits my profile only'));
    expect(titles()).toEqual(['Hand hygiene', 'Restraint use']);

    await pick('Accreditor', 'DNV');
    expect(titles()).toEqual([]);
    expect(text()).toContain('No templates match these filters');
    await click(getControl('Clear filters'));
    expect(titles()).toHaveLength(3);
    expect(field('Fits my profile only').checked).toBe(false);

    await pick('Accreditor', 'The Joint Commission');
    expect(titles()).toEqual(['Hand hygiene']);
  });

  it('says when there are no templates at all', async () => {
    server({ [`GET ${PG_API}/templates`]: jsonResponse({ templates: [], can_edit: false }) });
    await openGenerator(BASE);
    await waitFor(() => expect(text()).toContain('No templates yet'));
  });

  it('asks for the facility profile while it is not saved', async () => {
    server({ [`GET ${PG_API}/profile`]: jsonResponse(profile({ saved: false })) });
    await openGenerator(BASE);
    await waitFor(() => expect(text()).toContain('Set up the facility profile'));
    expect(getControl('Complete the facility profile').getAttribute('href')).toBe(`${BASE}/profile`);
  });

  it('names the profile fields templates use that are empty', async () => {
    server({ [`GET ${PG_API}/profile`]: jsonResponse(profile({ missing: ['address', 'title_cno'] })) });
    await openGenerator(BASE);
    await waitFor(() => expect(text()).toContain('The facility profile is incomplete'));
    expect(text()).toContain('Address, Title: Chief nursing executive');
  });

  it('shows no banner for a complete profile', async () => {
    const api = server();
    await openGenerator(BASE);
    await waitFor(() => expect(titles()).toHaveLength(3));
    await waitFor(() => expect(api.calls(`GET ${PG_API}/profile`)).toHaveLength(1));
    expect(text()).not.toContain('facility profile');
  });

  it('lets an editor start a new template and opens it', async () => {
    const api = server(
      {
        [`POST ${PG_API}/templates`]: jsonResponse(detail({ id: 44, title: 'Visitor policy', current: null }), 201),
      },
      true,
    );
    const router = await openGenerator(BASE);
    await waitFor(() => expect(titles()).toHaveLength(3));
    await click(getControl('New template'));
    await waitFor(() => expect(dialog().textContent).toContain('New template'));
    await click(getControl('Create template', dialog()));
    expect(text(dialog())).toContain('Enter a title.');
    expect(api.calls(`POST ${PG_API}/templates`)).toHaveLength(0);

    await typeInto(field('Title', dialog()), 'Visitor policy');
    await click(getControl('Create template', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/templates/44`));
    expect(api.calls(`POST ${PG_API}/templates`)[0]!.body).toEqual({ title: 'Visitor policy' });
  });
});
