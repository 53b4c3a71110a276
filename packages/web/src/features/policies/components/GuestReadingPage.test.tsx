import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, openPolicyScreen, sessionRoutes, toasts } from './admin-test-helpers';
import { GuestReadingPage } from './GuestReadingPage';

const OFF = { enabled: false, ip_ranges: [], your_address: '10.1.2.3', you_are_inside: false, updated_at: null };
const READS = {
  reads: [
    {
      at: '2026-03-04T18:00:00Z',
      ip: '10.1.7.7',
      kind: 'read',
      query: null,
      document: { id: 5, number: '3.1', title: 'Hand hygiene' },
    },
    { at: '2026-03-04T17:59:00Z', ip: '10.1.7.7', kind: 'search', query: 'hand', document: null },
  ],
  page: 1,
  page_size: 50,
  total: 2,
};

function server(put?: (request: StubRequest) => Response) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/guest-reading`]: jsonResponse(OFF),
    [`GET ${API}/guest-reads`]: jsonResponse(READS),
    ...(put ? { [`PUT ${API}/guest-reading`]: put } : {}),
  });
}

const open = () => openPolicyScreen(`${BASE}/guest-reading`, ['guest-reading'], <GuestReadingPage />);
const rangesBox = () => document.querySelector('textarea') as HTMLTextAreaElement;
const toggle = () => document.querySelector<HTMLInputElement>('input[type="checkbox"]')!;

describe('GuestReadingPage', () => {
  it('shows the setting with the administrator’s address, and the log in words', async () => {
    server();
    await open();
    await waitFor(() => expect(rangesBox()).not.toBeNull());
    expect(toggle().checked).toBe(false);
    expect(text(document.querySelector('[data-testid="your-address"]')!)).toBe(
      'Your address: 10.1.2.3 (outside the saved ranges)',
    );
    await waitFor(() => expect(text()).toContain('Opened 3.1 Hand hygiene'));
    expect(text()).toContain('Searched “hand”');
    expect(text()).toContain('10.1.7.7');
  });

  it('refuses to turn on without a range, then saves the ranges and shows each bad line from the server', async () => {
    let saved: unknown = null;
    const api = server((request) => {
      saved = request.body;
      const body = request.body as { ip_ranges: string[] };
      if (body.ip_ranges.includes('10.0.0.300')) {
        return jsonResponse(
          {
            code: 'VALIDATION_FAILED',
            message: '“10.0.0.300” is not an IP address or range such as 10.20.0.0/16.',
            errors: { 'ip_ranges.1': ['“10.0.0.300” is not an IP address or range such as 10.20.0.0/16.'] },
          },
          400,
        );
      }
      return jsonResponse({ ...OFF, enabled: true, ip_ranges: ['10.1.0.0/16'], you_are_inside: true, updated_at: 'x' });
    });
    await open();
    await waitFor(() => expect(rangesBox()).not.toBeNull());
    await click(toggle());
    await click(getControl('Save'));
    expect(text()).toContain('List at least one address range to turn guest reading on.');
    expect(api.calls(`PUT ${API}/guest-reading`)).toHaveLength(0);

    await typeInto(rangesBox(), '10.1.0.0/16\n10.0.0.300\n');
    await click(getControl('Save'));
    await waitFor(() => expect(text()).toContain('“10.0.0.300” is not an IP address or range such as 10.20.0.0/16.'));
    expect(saved).toEqual({ enabled: true, ip_ranges: ['10.1.0.0/16', '10.0.0.300'] });

    await typeInto(rangesBox(), '10.1.0.0/16');
    await click(getControl('Save'));
    await waitFor(() => expect(toasts()).toContain('Guest reading is on.'));
    await waitFor(() => expect(text()).toContain('inside the saved ranges'));
    expect(text()).toContain('/read/12');
  });
});
