import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionChannelForTests } from '../../../lib/session-channel';
import { stubBroadcastChannel } from '../../../test/broadcast-stub';
import { render } from '../../../test/render';
import {
  ACTIVITY_EVENTS,
  type InactivityClock,
  type InactivityOptions,
  type InactivityState,
  useInactivityTimer,
} from './use-inactivity-timer';

const MINUTE = 60_000;

let tabs: ReturnType<typeof stubBroadcastChannel>;

beforeEach(() => {
  tabs = stubBroadcastChannel();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  resetSessionChannelForTests();
});

function Probe({ options, state }: { options: InactivityOptions; state: { current: InactivityState | null } }) {
  state.current = useInactivityTimer(options);
  return null;
}

/** Renders the hook and returns its latest state. */
async function mount(options: Partial<InactivityOptions> = {}) {
  const onExpire = vi.fn();
  const state: { current: InactivityState | null } = { current: null };
  await render(<Probe options={{ timeoutMs: 5 * MINUTE, onExpire, ...options }} state={state} />);
  return { onExpire, state: () => state.current! };
}

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

async function fire(type: string) {
  await act(async () => {
    window.dispatchEvent(new Event(type));
  });
}

describe('useInactivityTimer', () => {
  it('warns one minute before the timeout and counts down each second', async () => {
    const { state, onExpire } = await mount();
    await advance(4 * MINUTE - 1);
    expect(state().secondsLeft).toBeNull();

    await advance(1);
    expect(state().secondsLeft).toBe(60);
    await advance(1000);
    expect(state().secondsLeft).toBe(59);
    await advance(58_000);
    expect(state().secondsLeft).toBe(1);
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('calls onExpire once, at the timeout', async () => {
    const { state, onExpire } = await mount();
    await advance(5 * MINUTE - 1);
    expect(onExpire).not.toHaveBeenCalled();
    await advance(1);
    expect(onExpire).toHaveBeenCalledTimes(1);
    expect(state()).toMatchObject({ expired: true, secondsLeft: null });
    await advance(10 * MINUTE);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it.each(ACTIVITY_EVENTS)('starts again on %s', async (type) => {
    const { state, onExpire } = await mount();
    await advance(3 * MINUTE);
    await fire(type);
    await advance(4 * MINUTE - 1);
    expect(state().secondsLeft).toBeNull();
    await advance(1);
    expect(state().secondsLeft).toBe(60);
    await advance(MINUTE);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('ignores events that are not activity', async () => {
    const { onExpire } = await mount();
    await advance(3 * MINUTE);
    await fire('resize');
    await fire('focus');
    await advance(2 * MINUTE);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('hides the warning at once on activity, and on "Stay signed in"', async () => {
    const { state, onExpire } = await mount();
    await advance(4 * MINUTE + 30_000);
    expect(state().secondsLeft).toBe(30);

    await fire('keydown');
    expect(state().secondsLeft).toBeNull();

    await advance(4 * MINUTE + 10_000);
    expect(state().secondsLeft).toBe(50);
    await act(async () => state().stayActive());
    expect(state().secondsLeft).toBeNull();
    await advance(4 * MINUTE);
    expect(state().secondsLeft).toBe(60);
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('starts again when another tab reports activity (BroadcastChannel portal-session)', async () => {
    const otherTab = tabs.otherTab();
    const { state, onExpire } = await mount();
    await advance(4 * MINUTE + 30_000);
    expect(state().secondsLeft).toBe(30);

    await act(async () => otherTab.post({ type: 'activity' }));
    expect(state().secondsLeft).toBeNull();
    await advance(4 * MINUTE);
    expect(state().secondsLeft).toBe(60);
    await advance(MINUTE);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('ignores messages of other channels and unknown messages', async () => {
    const stranger = tabs.otherTab('another-channel');
    const otherTab = tabs.otherTab();
    const { onExpire } = await mount();
    await advance(4 * MINUTE);
    await act(async () => {
      stranger.post({ type: 'activity' });
      otherTab.post({ type: 'something-else' });
      otherTab.post('activity');
    });
    await advance(MINUTE);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('tells the other tabs about activity, at most every 5 seconds, and at once during the warning', async () => {
    const otherTab = tabs.otherTab();
    await mount();
    await fire('mousemove');
    await fire('mousemove');
    await advance(4000);
    await fire('mousemove');
    expect(otherTab.received).toEqual([{ type: 'activity' }]);

    await advance(1000);
    await fire('scroll');
    expect(otherTab.received).toHaveLength(2);

    await advance(4 * MINUTE + 1000);
    await fire('mousedown');
    expect(otherTab.received).toHaveLength(3);
  });

  it('does nothing without a timeout (configuration still loading)', async () => {
    const { state, onExpire } = await mount({ timeoutMs: null });
    await advance(60 * MINUTE);
    expect(onExpire).not.toHaveBeenCalled();
    expect(state().secondsLeft).toBeNull();
  });

  it('keeps the warning to half of a very short timeout (SPEC: 30 seconds in one reading)', async () => {
    const { state, onExpire } = await mount({ timeoutMs: 30_000 });
    await advance(14_999);
    expect(state().secondsLeft).toBeNull();
    await advance(1);
    expect(state().secondsLeft).toBe(15);
    await advance(15_000);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('uses the injected clock, and checks it when a hidden tab becomes visible again', async () => {
    let now = 1_000_000;
    const timers: Array<() => void> = [];
    const clock: InactivityClock = {
      now: () => now,
      setTimeout: (callback) => timers.push(callback),
      clearTimeout: () => {},
    };
    const { onExpire } = await mount({ clock });
    expect(timers).toHaveLength(1);

    // The computer slept: the pending timer never fired, but the tab is shown again after 6 minutes.
    now += 6 * MINUTE;
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('stops listening when unmounted', async () => {
    const { onExpire } = await mount();
    const { unmountAll } = await import('../../../test/mounted');
    unmountAll();
    await advance(10 * MINUTE);
    expect(onExpire).not.toHaveBeenCalled();
  });
});
