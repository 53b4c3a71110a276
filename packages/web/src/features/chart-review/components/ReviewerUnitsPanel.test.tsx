import type { CrReviewerUnits } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, openScreen, sessionRoutes, toasts } from './cr-test-fixtures';
import { ReviewerUnitsPanel } from './ReviewerUnitsPanel';

const open = () =>
  openScreen(
    `${BASE}/settings`,
    ['settings'],
    <>
      <h1>Settings</h1>
      <ReviewerUnitsPanel />
    </>,
  );

function body(edit: boolean, units: Record<number, string[]> = { 23: ['Ward 4'] }): CrReviewerUnits {
  return {
    reviewers: [
      { user_id: 21, name: 'Ada Lead', role: 'program_lead', units: units[21] ?? [] },
      { user_id: 23, name: 'Cy Reviewer', role: 'reviewer', units: units[23] ?? [] },
    ],
    units: ['Ward 4', 'Ward 5'],
    abilities: { edit },
  };
}

describe('ReviewerUnitsPanel', () => {
  it("edits the units each reviewer works on and saves every reviewer's units", async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/reviewer-units`]: jsonResponse(body(true)),
      [`PUT ${API}/reviewer-units`]: (request: StubRequest) => {
        const sent = request.body as { reviewers: { user_id: number; units: string[] }[] };
        return jsonResponse(body(true, Object.fromEntries(sent.reviewers.map((r) => [r.user_id, r.units]))));
      },
    });
    await open();
    await waitFor(() => expect(text()).toContain('Cy Reviewer'));
    expect((getControl("Save reviewers' units") as HTMLButtonElement).disabled).toBe(true);
    const input = document.querySelector<HTMLInputElement>('[aria-label="Units of Ada Lead"]')!;
    await click(input);
    let option: HTMLElement | undefined;
    await waitFor(() => {
      option = [...document.querySelectorAll<HTMLElement>('[role="option"]')].find((o) => o.textContent === 'Ward 5');
      expect(option).toBeDefined();
    });
    await click(option!);
    await click(getControl("Save reviewers' units"));
    await waitFor(() => expect(toasts()).toContain("Reviewers' units saved."));
    expect(api.calls(`PUT ${API}/reviewer-units`)[0]!.body).toEqual({
      reviewers: [
        { user_id: 21, units: ['Ward 5'] },
        { user_id: 23, units: ['Ward 4'] },
      ],
    });
  });

  it('is read-only without the settings section', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/reviewer-units`]: jsonResponse(body(false)) });
    await open();
    await waitFor(() => expect(text()).toContain('Cy Reviewer'));
    expect(text()).toContain('Ward 4');
    expect(text()).toContain('No unit');
    expect(() => getControl("Save reviewers' units")).toThrow();
    expect(document.querySelector('[aria-label="Units of Ada Lead"]')).toBeNull();
  });
});
