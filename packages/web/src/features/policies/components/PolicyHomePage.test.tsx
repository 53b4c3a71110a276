import type { MyTasks, ReviewDue, Task } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import { API, BASE, openPolicyScreen, sessionRoutes } from './admin-test-helpers';
import { PolicyHomePage } from './PolicyHomePage';

const NUR = { id: 3, name: 'Nursing', code: 'NUR' };

function task(overrides: Partial<Task> & Pick<Task, 'id' | 'title'>): Task {
  return {
    number: null,
    department: NUR,
    version_id: overrides.id * 10,
    version: 2,
    since: '2026-03-01T10:00:00Z',
    comment: null,
    ...overrides,
  };
}

function due(overrides: Partial<ReviewDue> & Pick<ReviewDue, 'id' | 'title' | 'days'>): ReviewDue {
  return {
    number: null,
    department: NUR,
    owner: { id: 7, name: 'Member One' },
    next_review_on: '2026-04-01',
    ...overrides,
  };
}

const EMPTY: MyTasks = { to_review: [], to_sign: [], to_read: [], sent_back: [], reviews_due: [] };

function server(tasks: MyTasks, permissions: Record<string, boolean> = {}, routes: Record<string, StubHandler> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/my-tasks`]: jsonResponse(tasks),
    'GET /api/me/permissions': jsonResponse({ permissions }),
    ...routes,
  });
}

const open = () => openPolicyScreen(BASE, [''], <PolicyHomePage />);

function section(title: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`section[data-section="${title}"]`);
  if (!element) throw new Error(`no section ${title}`);
  return element;
}

describe('PolicyHomePage', () => {
  it('lists what waits for the member, with links, dates and the bulk screens allowed', async () => {
    server(
      {
        to_review: [task({ id: 1, number: '1.1', title: 'Hand hygiene', version: 3, since: '2026-03-04T10:00:00Z' })],
        to_sign: [
          task({ id: 2, number: '1.2', title: 'Gloves', since: '2026-03-02T10:00:00Z' }),
          task({ id: 3, number: '1.3', title: 'Masks', since: '2026-03-01T10:00:00Z' }),
        ],
        to_read: [
          task({ id: 4, title: 'Fire safety', due_on: '2026-04-03', overdue: true }),
          task({ id: 5, title: 'Visitors', due_on: '2026-05-03', overdue: false }),
        ],
        sent_back: [task({ id: 6, title: 'Sharps', comment: 'Add the disposal steps.' })],
        reviews_due: [
          due({ id: 8, title: 'Due soon policy', days: 12 }),
          due({ id: 9, number: '2.1', title: 'Overdue policy', days: -3, next_review_on: '2026-03-01' }),
        ],
      },
      { 'policy_management:bulk-sign': true, 'policy_management:bulk-read': false },
    );
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('My tasks');
    expect(document.title).toContain('My tasks');
    await waitFor(() => section('To review'));

    const review = section('To review');
    const link = review.querySelector('a')!;
    expect(link.textContent).toBe('1.1 Hand hygiene');
    expect(link.getAttribute('href')).toBe(`${BASE}/documents/1?version=10`);
    expect(text(review)).toContain('Nursing · Version 3 · Waiting since Mar 4, 2026');

    const sign = section('To sign');
    expect([...sign.querySelectorAll('li a')].map((a) => a.textContent)).toEqual(['1.3 Masks', '1.2 Gloves']);
    await waitFor(() => expect(getControl('Sign all').getAttribute('href')).toBe(`${BASE}/bulk-sign`));
    expect(() => getControl('Read all')).toThrow();

    const read = section('To read');
    expect(read.querySelector('a')?.getAttribute('href')).toBe(`${BASE}/documents/4`);
    const [late, onTime] = [...read.querySelectorAll('li')];
    expect(text(late!)).toContain('Overdue');
    expect(text(late!)).toContain('Was due Apr 3, 2026');
    expect(text(onTime!)).toContain('Read by May 3, 2026');
    expect(onTime!.querySelector('.mantine-Badge-root')).toBeNull();

    expect(text(section('Sent back to you'))).toContain('Add the disposal steps.');

    const reviews = [...section('Reviews due').querySelectorAll('li')];
    expect(text(reviews[0]!)).toContain('2.1 Overdue policy');
    expect(text(reviews[0]!)).toContain('Overdue by 3 days');
    expect(text(reviews[0]!)).toContain('Review date Mar 1, 2026');
    expect(text(reviews[1]!)).toContain('Due in 12 days');
    expect(reviews[0]!.querySelector('.mantine-Badge-root')?.outerHTML).toContain('red');
    expect(reviews[1]!.querySelector('.mantine-Badge-root')?.outerHTML).toContain('orange');
    expect(text()).not.toContain('Nothing waits for you.');
  });

  it('offers Read all with two policies to read when allowed, not with one', async () => {
    server(
      { ...EMPTY, to_read: [task({ id: 4, title: 'Fire safety' }), task({ id: 5, title: 'Visitors' })] },
      {
        'policy_management:bulk-read': true,
      },
    );
    await open();
    await waitFor(() => expect(getControl('Read all').getAttribute('href')).toBe(`${BASE}/bulk-read`));
    expect(() => section('To review')).toThrow();
  });

  it('says when nothing waits, with a way to the table of contents', async () => {
    server(EMPTY);
    await open();
    await waitFor(() => expect(text()).toContain('Nothing waits for you.'));
    expect(getControl('Open the table of contents').getAttribute('href')).toBe(`${BASE}/toc`);
  });

  it('shows a load failure with a retry', async () => {
    const api = server(
      EMPTY,
      {},
      {
        [`GET ${API}/my-tasks`]: (() => {
          let calls = 0;
          return () => {
            calls += 1;
            return calls === 1 ? jsonResponse({ message: 'Database unavailable.' }, 503) : jsonResponse(EMPTY);
          };
        })(),
      },
    );
    await open();
    await waitFor(() => expect(text()).toContain('Database unavailable.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(text()).toContain('Nothing waits for you.'));
    expect(api.calls(`GET ${API}/my-tasks`)).toHaveLength(2);
  });

  it('has no serious accessibility findings', async () => {
    server(
      {
        ...EMPTY,
        to_sign: [task({ id: 2, title: 'Gloves' }), task({ id: 3, title: 'Masks' })],
        sent_back: [task({ id: 6, title: 'Sharps', comment: 'Add the disposal steps.' })],
        reviews_due: [due({ id: 9, title: 'Overdue policy', days: -3 })],
      },
      { 'policy_management:bulk-sign': true },
    );
    await open();
    await waitFor(() => getControl('Sign all'));
    expect(await seriousViolations()).toEqual([]);
  });
});
