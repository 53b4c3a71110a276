import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { portalRoutes } from '../../../test/portal-stub';
import { click, getControl, renderRoute, text, waitFor } from '../../../test/render';

class FakeEventSource extends EventTarget {
  static last: FakeEventSource | null = null;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    super();
    FakeEventSource.last = this;
  }
  close() {
    this.closed = true;
  }
  emit(data: unknown) {
    this.dispatchEvent(new MessageEvent('notification', { data: JSON.stringify(data) }));
  }
}

beforeEach(() => {
  localStorage.clear();
  FakeEventSource.last = null;
});

const note = (id: number, message: string, project_name: string | null = 'Lakeside Hospital') => ({
  id,
  message,
  read_at: null,
  created_at: '2026-03-02T15:04:00Z',
  link: `/app/policy_management/4/documents/${id}`,
  project_name,
  project_id: project_name ? 4 : null,
});

const bell = () => document.querySelector<HTMLButtonElement>('button[aria-label^="Notifications"]')!;
const items = () => [...document.querySelectorAll('li[data-notification]')];

async function openBell() {
  await waitFor(() => expect(bell().disabled).toBe(false));
  await click(bell());
}

function memberServer(lists: Response[], patch: Response = new Response(null, { status: 204 })) {
  return stubApi({
    ...portalRoutes(),
    'GET /api/projects/4/notifications/': lists,
    'PATCH /api/projects/4/notifications/1/read': patch,
    'PATCH /api/projects/4/notifications/2/read': patch,
  });
}

describe('NotificationBell', () => {
  it("shows the unread count and each item's message, timestamp, View and Dismiss (no project name for members)", async () => {
    memberServer([jsonResponse({ notifications: [note(1, 'Policy 1.2 needs your signature'), note(2, 'New page')] })]);
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (2 unread)'));
    expect(text(bell().parentElement!)).toContain('2');
    await openBell();
    await waitFor(() => expect(items()).toHaveLength(2));
    const first = items()[0]!;
    expect(text(first)).toContain('Policy 1.2 needs your signature');
    expect(text(first)).toContain('Mar 2, 2026');
    expect(text(first)).not.toContain('Lakeside Hospital');
    expect(getControl('View', first).getAttribute('href')).toBe('/app/policy_management/4/documents/1');
    expect(getControl('Dismiss', first)).toBeTruthy();
  });

  it('Dismiss marks one read and re-fetches the list', async () => {
    const api = memberServer([
      jsonResponse({ notifications: [note(1, 'First'), note(2, 'Second')] }),
      jsonResponse({ notifications: [note(2, 'Second')] }),
    ]);
    await renderRoute('/member/projects/4/apps');
    await openBell();
    await waitFor(() => expect(items()).toHaveLength(2));
    await click(getControl('Dismiss', items()[0]!));
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(api.calls('PATCH /api/projects/4/notifications/1/read')).toHaveLength(1);
    expect(api.calls('GET /api/projects/4/notifications/')).toHaveLength(2);
    expect(bell().getAttribute('aria-label')).toBe('Notifications (1 unread)');
  });

  it("Dismiss All marks every one read, then shows 'No notifications'", async () => {
    const api = memberServer([
      jsonResponse({ notifications: [note(1, 'First'), note(2, 'Second')] }),
      jsonResponse({ notifications: [] }),
    ]);
    await renderRoute('/member/projects/4/apps');
    await openBell();
    await waitFor(() => expect(items()).toHaveLength(2));
    await click(getControl('Dismiss All'));
    await waitFor(() => expect(text()).toContain('No notifications'));
    expect(api.calls('PATCH /api/projects/4/notifications/1/read')).toHaveLength(1);
    expect(api.calls('PATCH /api/projects/4/notifications/2/read')).toHaveLength(1);
  });

  it("says 'No notifications' when there are none, without a count", async () => {
    memberServer([jsonResponse({ notifications: [] })]);
    await renderRoute('/member/projects/4/apps');
    await openBell();
    await waitFor(() => expect(text()).toContain('No notifications'));
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
  });

  it("'Failed to load notifications' empties the list", async () => {
    memberServer([jsonResponse({ message: 'Server Error' }, 500)]);
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(text()).toContain('Failed to load notifications'));
    await openBell();
    await waitFor(() => expect(text()).toContain('No notifications'));
  });

  it("'Failed to mark notification as read'", async () => {
    memberServer([jsonResponse({ notifications: [note(1, 'First')] })], jsonResponse({ message: 'Server Error' }, 500));
    await renderRoute('/member/projects/4/apps');
    await openBell();
    await waitFor(() => expect(items()).toHaveLength(1));
    await click(getControl('Dismiss', items()[0]!));
    await waitFor(() => expect(text()).toContain('Failed to mark notification as read'));
  });

  it("is disabled with title 'Loading project...' while the project the path names is loading", async () => {
    const api = stubApi({
      ...portalRoutes(),
      // The project never answers: the bell waits for it.
      'GET /api/projects/4': () => new Promise<Response>(() => {}),
    });
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(bell()).toBeTruthy());
    expect(bell().disabled).toBe(true);
    expect(bell().getAttribute('title')).toBe('Loading project...');
    expect(api.requests.some((r) => r.path.includes('notifications'))).toBe(false);
  });

  it('falls back to the list across projects when the project the path names cannot be loaded', async () => {
    const api = stubApi({
      ...portalRoutes({ project: null }),
      'GET /api/notifications/': jsonResponse({ notifications: [note(1, 'Still here')] }),
    });
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (1 unread)'));
    expect(bell().disabled).toBe(false);
    expect(api.calls('GET /api/projects/4/notifications/')).toHaveLength(0);
  });

  describe('on the landing page /member/projects (no project open)', () => {
    const across = [
      { ...note(1, 'Policy 1.2 needs your signature'), link: '/app/policy_management/4/documents/1' },
      { ...note(2, 'Review chart 7', 'Hilltop Clinic'), project_id: 9, link: '/app/chart-review/9/my' },
    ];
    const landing = (lists: StubHandler[], patch: Response = new Response(null, { status: 204 })) =>
      stubApi({
        ...portalRoutes({ project: null }),
        'GET /api/notifications/': lists,
        'PATCH /api/notifications/1/read': patch,
        'PATCH /api/notifications/2/read': patch,
      });

    it('is enabled and lists the items of two projects, each with its project name and View link', async () => {
      const api = landing([jsonResponse({ notifications: across })]);
      await renderRoute('/member/projects');
      await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (2 unread)'));
      expect(bell().disabled).toBe(false);
      expect(bell().getAttribute('title')).toBeNull();
      await openBell();
      await waitFor(() => expect(items()).toHaveLength(2));
      expect(text(items()[0]!)).toContain('Policy 1.2 needs your signature');
      expect(text(items()[0]!)).toContain('Lakeside Hospital');
      expect(text(items()[1]!)).toContain('Review chart 7');
      expect(text(items()[1]!)).toContain('Hilltop Clinic');
      expect(getControl('View', items()[1]!).getAttribute('href')).toBe('/app/chart-review/9/my');
      expect(api.requests.filter((r) => r.path.includes('/projects/') && r.path.includes('notifications'))).toEqual([]);
    });

    it('Dismiss marks one read through /api/notifications/{id}/read and re-fetches', async () => {
      const api = landing([jsonResponse({ notifications: across }), jsonResponse({ notifications: [across[1]] })]);
      await renderRoute('/member/projects');
      await openBell();
      await waitFor(() => expect(items()).toHaveLength(2));
      await click(getControl('Dismiss', items()[0]!));
      await waitFor(() => expect(items()).toHaveLength(1));
      expect(api.calls('PATCH /api/notifications/1/read')).toHaveLength(1);
      expect(api.calls('GET /api/notifications/')).toHaveLength(2);
      expect(bell().getAttribute('aria-label')).toBe('Notifications (1 unread)');
    });

    it('View marks the item read and opens its page in its project', async () => {
      const api = landing([jsonResponse({ notifications: across }), jsonResponse({ notifications: [across[0]] })]);
      const { router } = await renderRoute('/member/projects');
      await openBell();
      await waitFor(() => expect(items()).toHaveLength(2));
      await click(getControl('View', items()[1]!));
      await waitFor(() => expect(router.state.location.pathname).toBe('/app/chart-review/9/my'));
      await waitFor(() => expect(api.calls('PATCH /api/notifications/2/read')).toHaveLength(1));
    });

    it("lists across projects even when a last-opened project is remembered, and says 'No notifications'", async () => {
      localStorage.setItem('portal.lastProjectId', '4');
      const api = stubApi({ ...portalRoutes(), 'GET /api/notifications/': jsonResponse({ notifications: [] }) });
      await renderRoute('/member/projects');
      await openBell();
      await waitFor(() => expect(text()).toContain('No notifications'));
      expect(api.calls('GET /api/notifications/')).toHaveLength(1);
      expect(api.calls('GET /api/projects/4/notifications/')).toHaveLength(0);
    });

    it("shows 'Loading notifications' until the list arrives, then 'Failed to load notifications' on an error", async () => {
      let answer: (response: Response) => void = () => {};
      landing([() => new Promise<Response>((resolve) => (answer = resolve))]);
      await renderRoute('/member/projects');
      await openBell();
      await waitFor(() =>
        expect(document.querySelector('[role="status"][aria-label="Loading notifications"]')).not.toBeNull(),
      );
      expect(text()).not.toContain('No notifications');
      await act(async () => answer(jsonResponse({ message: 'Server Error' }, 500)));
      await waitFor(() => expect(text()).toContain('Failed to load notifications'));
      await waitFor(() => expect(text()).toContain('No notifications'));
    });

    it("re-fetches for a live notification of any of the member's projects", async () => {
      vi.stubGlobal('EventSource', FakeEventSource);
      const api = landing([jsonResponse({ notifications: [] }), jsonResponse({ notifications: [across[1]] })]);
      await renderRoute('/member/projects');
      await waitFor(() => expect(api.calls('GET /api/notifications/')).toHaveLength(1));
      await act(async () => FakeEventSource.last!.emit(across[1]));
      await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (1 unread)'));
    });
  });

  it('superadmin: global notifications with the project name, no project needed', async () => {
    const api = stubApi({
      ...portalRoutes({ role: 'superadmin', project: null }),
      'GET /super/notifications/': jsonResponse({ notifications: [note(5, 'New user request', 'Hilltop')] }),
      'PATCH /super/notifications/5/read': new Response(null, { status: 204 }),
    });
    await renderRoute('/superadmin');
    await openBell();
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(text(items()[0]!)).toContain('Hilltop');
    await click(getControl('Dismiss', items()[0]!));
    await waitFor(() => expect(api.calls('PATCH /super/notifications/5/read')).toHaveLength(1));
  });

  it('re-fetches when the stream announces a notification for this project; falls back to polling on error', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const api = memberServer([
      jsonResponse({ notifications: [] }),
      jsonResponse({ notifications: [note(1, 'Arrived live')] }),
    ]);
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    const source = FakeEventSource.last!;
    expect(source.url).toBe('/api/notifications/stream');
    await waitFor(() => expect(api.calls('GET /api/projects/4/notifications/')).toHaveLength(1));
    // Another project's notification changes nothing here.
    await act(async () => source.emit({ ...note(9, 'Elsewhere'), project_id: 8 }));
    await act(async () => source.emit({ ...note(1, 'Arrived live'), project_id: 4 }));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (1 unread)'));
    expect(api.calls('GET /api/projects/4/notifications/')).toHaveLength(2);
    await act(async () => source.onerror?.());
    expect(source.closed).toBe(true);
  });
});
