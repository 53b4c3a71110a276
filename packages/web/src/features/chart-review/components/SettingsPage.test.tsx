import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, errorOf, field, openScreen, sessionRoutes, settingsBody, toasts } from './cr-test-fixtures';
import { SettingsPage } from './SettingsPage';

const open = () => openScreen(`${BASE}/settings`, ['settings'], <SettingsPage />);
const form = () => document.querySelector<HTMLFormElement>('form[aria-label="Chart review settings"]')!;

describe('SettingsPage', () => {
  it('shows the settings with shares as percentages and saves them as shares', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`PUT ${API}/settings`]: (request: StubRequest) =>
        jsonResponse(settingsBody({ ...(request.body as object), updated_at: '2026-03-05T10:00:00Z' })),
    });
    await open();
    await waitFor(() => expect(form()).not.toBeNull());
    expect(document.title).toContain('Chart review settings');
    expect(field('Store encounter references').checked).toBe(false);
    // Revealing and retention mean nothing while references are not stored.
    expect(field('Keep encounter references for (months)').disabled).toBe(true);
    expect(field('Second-review share (%)').value).toBe('5');
    expect(field('Minimum agreement (%)').value).toBe('95');
    expect(field('New reviewer match (%)').value).toBe('97');
    expect(field('Minimum kappa').value).toBe('0.75');

    await click(field('Store encounter references'));
    expect(field('Keep encounter references for (months)').disabled).toBe(false);
    await click(field('Programme lead'));
    await typeInto(field('Second-review share (%)'), '7');
    await typeInto(field('Minimum agreement (%)'), '92.5');
    await click(field('Allow Partial answers'));
    await click(getControl('Save settings'));
    await waitFor(() => expect(toasts()).toContain('Settings saved.'));
    expect(api.calls(`PUT ${API}/settings`)[0]!.body).toEqual({
      store_encounter_ref: true,
      reveal_roles: ['chart_review_admin', 'program_lead'],
      retention_months: 24,
      default_irr_rate: 0.07,
      irr_kappa_min: 0.75,
      irr_agreement_min: 0.925,
      new_reviewer_match_min: 0.97,
      partial_enabled: true,
      privilege_label: 'Privileged and confidential: quality improvement work product.',
      coi_own_unit: true,
    });
    expect(text()).not.toContain('Unsaved changes');
  });

  it('says what is wrong at each field before sending anything', async () => {
    const api = stubApi({ ...sessionRoutes(), [`GET ${API}/settings`]: jsonResponse(settingsBody()) });
    await open();
    await waitFor(() => expect(form()).not.toBeNull());
    await typeInto(field('Second-review share (%)'), '');
    await typeInto(field('Minimum agreement (%)'), '');
    await typeInto(field('Minimum kappa'), '2');
    await typeInto(field('Privilege label'), '   ');
    await click(getControl('Save settings'));
    expect(errorOf('Second-review share (%)')).toBe('Enter the second-review share as a percentage.');
    expect(errorOf('Minimum agreement (%)')).toBe('Enter the minimum agreement as a percentage.');
    expect(errorOf('Minimum kappa')).toBe('Kappa is from -1 to 1.');
    expect(errorOf('Privilege label')).toBe('Enter the privilege label shown on every review page and export.');
    expect(api.calls(`PUT ${API}/settings`)).toHaveLength(0);

    await typeInto(field('Second-review share (%)'), '10');
    expect(errorOf('Second-review share (%)')).toBeNull();
  });

  it('shows the server field errors at their fields', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/settings`]: jsonResponse(settingsBody({ store_encounter_ref: true })),
      [`PUT ${API}/settings`]: jsonResponse(
        {
          message: 'Keep encounter references at most 120 months.',
          code: 'VALIDATION_FAILED',
          errors: { retention_months: ['Keep encounter references at most 120 months.'] },
        },
        400,
      ),
    });
    await open();
    await waitFor(() => expect(form()).not.toBeNull());
    await typeInto(field('Keep encounter references for (months)'), '36');
    await click(getControl('Save settings'));
    await waitFor(() =>
      expect(errorOf('Keep encounter references for (months)')).toBe('Keep encounter references at most 120 months.'),
    );
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'Some settings need attention. See the messages at the fields.',
    );
    expect(toasts()).not.toContain('Settings saved.');
  });

  it('shows the settings read-only, with a notice, to someone who may not change them', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/settings`]: jsonResponse(
        settingsBody({ abilities: { edit: false }, reveal_roles: [], partial_enabled: true, default_irr_rate: 0.1 }),
      ),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Only a chart review admin can change them.'));
    expect(document.querySelector('form')).toBeNull();
    expect(document.querySelector('input, textarea')).toBeNull();
    const cells = [...document.querySelectorAll('table tr')].map((row) => row.textContent);
    expect(cells).toContain('Second-review share10%');
    expect(cells).toContain('Roles that may read encounter references (pull list, reveal)None');
    expect(cells).toContain('Allow Partial answersYes');
  });

  it('offers a retry when the settings cannot be loaded', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/settings`]: [
        jsonResponse({ message: 'The server is busy. Please try again.' }, 503),
        jsonResponse(settingsBody()),
      ],
    });
    await open();
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe('The server is busy. Please try again.'),
    );
    await click(getControl('Try again'));
    await waitFor(() => expect(form()).not.toBeNull());
    expect(api.calls(`GET ${API}/settings`)).toHaveLength(2);
  });
});
