import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render } from '../../../test/render';
import { POLL_INTERVAL_MS, useNotificationStream } from './use-notification-stream';

class FailingEventSource extends EventTarget {
  static last: FailingEventSource | null = null;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor() {
    super();
    FailingEventSource.last = this;
  }
  close() {
    this.closed = true;
  }
}

let seen: number | false | undefined;
function Probe({ enabled }: { enabled: boolean }) {
  seen = useNotificationStream(enabled, '4', false);
  return null;
}

function Leaving({ leave }: { leave: () => void }) {
  useNotificationStream(true, '4', false, leave);
  return null;
}

describe('useNotificationStream', () => {
  it('does not poll while the stream is live, polls every 30 s after it fails', async () => {
    vi.stubGlobal('EventSource', FailingEventSource);
    await render(<Probe enabled />);
    expect(seen).toBe(false);
    await act(async () => FailingEventSource.last!.onerror?.());
    expect(seen).toBe(POLL_INTERVAL_MS);
    expect(POLL_INTERVAL_MS).toBe(30_000);
    expect(FailingEventSource.last!.closed).toBe(true);
  });

  it('leaves for the login page at once when the server ends the session', async () => {
    vi.stubGlobal('EventSource', FailingEventSource);
    const leave = vi.fn();
    await render(<Leaving leave={leave} />);
    expect(leave).not.toHaveBeenCalled();
    await act(async () => {
      FailingEventSource.last!.dispatchEvent(new MessageEvent('session_ended', { data: '{}' }));
    });
    expect(leave).toHaveBeenCalledTimes(1);
    expect(FailingEventSource.last!.closed).toBe(true);
  });

  it('polls when the browser has no EventSource', async () => {
    vi.stubGlobal('EventSource', undefined);
    await render(<Probe enabled />);
    expect(seen).toBe(POLL_INTERVAL_MS);
  });

  it('neither streams nor polls while disabled', async () => {
    FailingEventSource.last = null;
    vi.stubGlobal('EventSource', FailingEventSource);
    await render(<Probe enabled={false} />);
    expect(seen).toBe(false);
    expect(FailingEventSource.last).toBeNull();
  });
});
