import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { dialog, field, rows, seriousViolations } from '../../../test/ui';
import { REGENERATE_EXPLAINED } from './GeneratedPage';
import { BASE, detail, generation, generatorRoutes, openGenerator, PG_API, version } from './pg-test-fixtures';

afterEach(() => localStorage.clear());

const GENERATIONS = [
  generation({
    id: 1,
    document: { id: 31, number: 'NUR-004', title: 'Infant security', status: 'draft' },
    latest_version: 3,
    update_available: true,
    unresolved: ['title_cno', 'start_date'],
    assisted: true,
  }),
  generation({
    id: 2,
    document: { id: 32, number: null, title: 'Hand hygiene', status: 'in_review' },
    template: { id: 8, title: 'Hand hygiene' },
    version: 1,
    latest_version: 2,
    update_available: true,
  }),
  generation({
    id: 3,
    document: { id: 33, number: '2.1', title: 'Restraint use', status: 'published' },
    template: { id: 9, title: 'Restraint use' },
  }),
];

const REGENERATED = {
  document_id: 31,
  generation_id: 9,
  version: 4,
  unresolved: ['title_cno'],
  redline: { html: '<p>Drills <del>twice</del><ins>four times</ins> a year.</p>', insertions: 1, deletions: 1 },
};

const row = (id: number) => document.querySelector<HTMLElement>(`[data-generation-id="${id}"]`)!;

function server(extra: Parameters<typeof generatorRoutes>[0] = {}) {
  return stubApi(
    generatorRoutes({ [`GET ${PG_API}/generations`]: jsonResponse({ generations: GENERATIONS }), ...extra }),
  );
}

describe('GeneratedPage', () => {
  it('lists the generated policies with their template, status and what is unresolved', async () => {
    server();
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(rows('[data-testid="generations"]')).toHaveLength(3));
    const [first, second, third] = rows('[data-testid="generations"]');
    expect(first![0]).toBe('NUR-004 Infant security');
    expect(first![1]).toBe('Draft');
    expect(first![2]).toContain('v2');
    expect(first![2]).toContain('v3 available');
    expect(first![2]).toContain('Assisted');
    expect(first![3]).toContain('by Olive Owner');
    expect(first![4]).toBe('2 fields');
    expect(first![5]).toBe('AnswersRegenerate from v3');
    expect(second![0]).toBe('Hand hygiene');
    // In review: no new version until the review ends.
    expect(second![5]).toBe('Answers');
    expect(third![2]).not.toContain('available');
    expect(third![4]).toBe('None');
    expect(getControl('NUR-004 Infant security').getAttribute('href')).toBe('/app/policy_management/4/documents/31');
    expect(await seriousViolations()).toEqual([]);
  });

  it('shows the answers a policy was generated with, by question, with names for people', async () => {
    server({
      [`GET ${PG_API}/generations/1`]: jsonResponse({
        ...GENERATIONS[0],
        template_version_id: 70,
        answers: { owner_name: '<b>Dana</b>', start_date: '2026-03-01', drills: 4, lead: 22, notify: true },
      }),
      [`GET ${PG_API}/templates/7/versions/70`]: jsonResponse(version()),
    });
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(row(1)).not.toBeNull());
    await click(getControl('Answers', row(1)));
    await waitFor(() => expect(rows('[role="dialog"] table')).toHaveLength(5));
    expect(dialog().textContent).toContain('Made from Infant security, version 2');
    expect(rows('[role="dialog"] table')).toEqual([
      ['Program owner', '<b>Dana</b>'],
      ['Start date', '2026-03-01'],
      ['Drills per year', '4'],
      ['Drill lead', 'Lee Lead'],
      ['Notify security', 'Yes'],
    ]);
    expect(dialog().querySelector('b')).toBeNull();
  });

  it('makes a new draft version with changed answers from the template’s current version, then shows the redline', async () => {
    const api = server({
      [`GET ${PG_API}/generations/1`]: jsonResponse({
        ...GENERATIONS[0],
        template_version_id: 70,
        answers: { owner_name: 'Dana', start_date: '2026-03-01', drills: 4, lead: 22, notify: true },
      }),
      [`GET ${PG_API}/templates/7/versions/70`]: jsonResponse(version()),
      [`GET ${PG_API}/templates/7`]: jsonResponse(detail()),
      [`POST ${PG_API}/documents/31/regenerate`]: jsonResponse(REGENERATED),
    });
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(row(1)).not.toBeNull());
    await click(getControl('Answers', row(1)));
    await waitFor(() => expect(getControl('Change answers', dialog())).toBeDefined());
    await click(getControl('Change answers', dialog()));
    await waitFor(() => expect(field('Drills per year', dialog()).value).toBe('4'));
    expect(field('Program owner', dialog()).value).toBe('Dana');
    await typeInto(field('Drills per year', dialog()), '6');
    await click(getControl('Make a new draft version', dialog()));
    await waitFor(() => expect(api.calls(`POST ${PG_API}/documents/31/regenerate`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/documents/31/regenerate`)[0]!.body).toEqual({
      template_version_id: 70,
      answers: { owner_name: 'Dana', start_date: '2026-03-01', drills: 6, lead: 22, notify: true },
    });
    await waitFor(() => expect(dialog().textContent).toContain('New draft version made'));
  });

  it('offers no change of answers for a policy out for review', async () => {
    server({
      [`GET ${PG_API}/generations/2`]: jsonResponse({
        ...GENERATIONS[1],
        template_version_id: 70,
        answers: { owner_name: 'Dana' },
      }),
      [`GET ${PG_API}/templates/8/versions/70`]: jsonResponse(version()),
    });
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(row(2)).not.toBeNull());
    await click(getControl('Answers', row(2)));
    await waitFor(() => expect(rows('[role="dialog"] table')).toHaveLength(1));
    expect(() => getControl('Change answers', dialog())).toThrow();
  });

  it('regenerates after a confirmation and shows the redline', async () => {
    const api = server({ [`POST ${PG_API}/documents/31/regenerate`]: jsonResponse(REGENERATED) });
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(row(1)).not.toBeNull());
    await click(getControl('Regenerate from v3', row(1)));
    await waitFor(() => expect(dialog().textContent).toContain(REGENERATE_EXPLAINED));
    expect(dialog().textContent).toContain('Regenerate from version 3?');
    expect(api.calls(`POST ${PG_API}/documents/31/regenerate`)).toHaveLength(0);

    await click(getControl('Regenerate', dialog()));
    await waitFor(() => expect(dialog().textContent).toContain('New draft version made'));
    expect(api.calls(`POST ${PG_API}/documents/31/regenerate`)[0]!.body).toEqual({});
    const shown = dialog();
    expect(text(shown)).toContain('Version 4 of “NUR-004 Infant security”');
    expect(text(shown)).toContain('1 insertion');
    expect(text(shown)).toContain('1 deletion');
    expect(shown.querySelector('.policy-content ins')?.textContent).toBe('four times');
    expect(shown.querySelector('.policy-content del')?.textContent).toBe('twice');
    expect(text(shown)).toContain('Title: Chief nursing executive');
    expect(getControl('Open the policy', shown).getAttribute('href')).toBe('/app/policy_management/4/documents/31');
  });

  it('shows why the server refused (409) and makes nothing', async () => {
    server({
      [`POST ${PG_API}/documents/31/regenerate`]: jsonResponse(
        { message: 'The policy is waiting for signatures: regenerate it after it is published.' },
        409,
      ),
    });
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(row(1)).not.toBeNull());
    await click(getControl('Regenerate from v3', row(1)));
    await waitFor(() => expect(dialog()).toBeDefined());
    await click(getControl('Regenerate', dialog()));
    await waitFor(() =>
      expect(dialog().textContent).toContain(
        'The policy is waiting for signatures: regenerate it after it is published.',
      ),
    );
    expect(dialog().textContent).not.toContain('New draft version made');
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('says when nothing was generated yet and links to the templates', async () => {
    server({ [`GET ${PG_API}/generations`]: jsonResponse({ generations: [] }) });
    await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(text()).toContain('No policies generated yet'));
    expect(getControl('Browse the templates').getAttribute('href')).toBe(BASE);
  });
});
