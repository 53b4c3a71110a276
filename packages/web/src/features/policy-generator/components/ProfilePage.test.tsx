import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { errorOf, field, pick, seriousViolations, toasts } from '../../../test/ui';
import { PROFILE_READ_ONLY, PROFILE_SAVED } from './ProfilePage';
import { BASE, generatorRoutes, openGenerator, PG_API, profile } from './pg-test-fixtures';

afterEach(() => localStorage.clear());

const open = () => openGenerator(`${BASE}/profile`);

describe('ProfilePage', () => {
  it('fills the form from the profile and saves it with PUT', async () => {
    const api = stubApi(
      generatorRoutes({
        [`PUT ${PG_API}/profile`]: (request) =>
          jsonResponse({ ...profile(), ...(request.body as object), updated_at: '2026-03-05T10:00:00Z' }),
      }),
    );
    await open();
    await waitFor(() => expect(field('Legal name').value).toBe('Lakeside Hospital Inc.'));
    expect(document.title).toContain('Facility profile | Policy Generator');
    expect(field('Emergency department').checked).toBe(true);
    expect(field('Dialysis').checked).toBe(false);
    expect(field('The Joint Commission').checked).toBe(true);
    expect(field('Chief executive').value).toBe('President');
    expect(field('Chief nursing executive').placeholder).toBe('Chief Nursing Officer');
    expect(field('Licensed beds').value).toBe('120');
    expect(await seriousViolations()).toEqual([]);

    await typeInto(field('Legal name'), 'Lakeside Regional Hospital');
    await typeInto(field('Licensed beds'), '');
    await click(field('Dialysis'));
    await click(field('Emergency department'));
    await click(field('DNV'));
    await pick('State', 'WI');
    await typeInto(field('Chief nursing executive'), 'VP of Nursing');
    await typeInto(field('Default review interval (months)'), '36');
    await click(getControl('Save profile'));

    await waitFor(() => expect(api.calls(`PUT ${PG_API}/profile`)).toHaveLength(1));
    expect(api.calls(`PUT ${PG_API}/profile`)[0]!.body).toEqual({
      legal_name: 'Lakeside Regional Hospital',
      short_name: 'Lakeside',
      address: '1 Lake Road, Springfield',
      state: 'WI',
      bed_count: null,
      service_lines: ['ob', 'dialysis'],
      accreditors: ['tjc', 'dnv'],
      owner_titles: {
        ceo: 'President',
        cno: 'VP of Nursing',
        cmo: '',
        quality: '',
        risk: '',
        infection_prevention: '',
        pharmacy: '',
        privacy: '',
        emergency: '',
      },
      default_review_interval_months: 36,
    });
    await waitFor(() => expect(toasts()).toContain(PROFILE_SAVED));
  });

  it('checks the fields before saving', async () => {
    const api = stubApi(generatorRoutes());
    await open();
    await waitFor(() => expect(field('Legal name').value).toBe('Lakeside Hospital Inc.'));
    await typeInto(field('Legal name'), '   ');
    await typeInto(field('Default review interval (months)'), '');
    await click(getControl('Save profile'));
    await waitFor(() => expect(errorOf('Legal name')).toBe('Enter the legal name of the facility.'));
    expect(errorOf('Default review interval (months)')).toBe('Enter the review interval in months.');
    expect(api.calls(`PUT ${PG_API}/profile`)).toHaveLength(0);
  });

  it('shows the server’s field errors on the fields', async () => {
    stubApi(
      generatorRoutes({
        [`PUT ${PG_API}/profile`]: jsonResponse(
          {
            message: 'The profile has errors.',
            errors: { short_name: ['This short name is taken.'], 'owner_titles.cno': ['Too long.'] },
          },
          422,
        ),
      }),
    );
    await open();
    await waitFor(() => expect(field('Legal name').value).toBe('Lakeside Hospital Inc.'));
    await click(getControl('Save profile'));
    await waitFor(() => expect(errorOf('Short name')).toBe('This short name is taken.'));
    expect(errorOf('Chief nursing executive')).toBe('Too long.');
  });

  it('is read-only for members who are not project administrators', async () => {
    stubApi(generatorRoutes({ [`GET ${PG_API}/profile`]: jsonResponse(profile({ can_edit: false })) }));
    await open();
    await waitFor(() => expect(text()).toContain(PROFILE_READ_ONLY));
    expect(field('Legal name').disabled).toBe(true);
    expect(field('Address').disabled).toBe(true);
    expect(field('Licensed beds').disabled).toBe(true);
    expect(field('Emergency department').disabled).toBe(true);
    expect(field('Chief executive').disabled).toBe(true);
    expect(() => getControl('Save profile')).toThrow();
  });

  it('says an unsaved profile holds suggestions', async () => {
    stubApi(generatorRoutes({ [`GET ${PG_API}/profile`]: jsonResponse(profile({ saved: false, updated_at: null })) }));
    await open();
    await waitFor(() => expect(text()).toContain('Not saved yet'));
    expect(text()).toContain('Never saved.');
  });
});
