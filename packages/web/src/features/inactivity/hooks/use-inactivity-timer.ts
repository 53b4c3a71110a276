import { useCallback, useEffect, useRef, useState } from 'react';
import { postSessionMessage, subscribeSessionMessages } from '../../../lib/session-channel';

/** The time source, injectable so tests can drive the timer. */
export interface InactivityClock {
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const systemClock: InactivityClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Issue 3: mouse move, mouse down, key down, touch start and scroll count as activity. */
export const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'scroll'] as const;
export const WARNING_BEFORE_MS = 60_000;
/** Activity is told to the other tabs at most this often (a 15-minute timer does not need more). */
export const BROADCAST_INTERVAL_MS = 5_000;

export interface InactivityOptions {
  /** Inactivity allowed before signing out; null or undefined disables the timer (e.g. config still loading). */
  timeoutMs: number | null | undefined;
  /** Called once when the time is up. */
  onExpire: () => void;
  warningMs?: number;
  clock?: InactivityClock;
  /** Where activity events are listened to. */
  target?: Window;
}

export interface InactivityState {
  /** Whole seconds until sign-out while the warning shows, else null. */
  secondsLeft: number | null;
  expired: boolean;
  /** Counts as activity ('Stay signed in'). */
  stayActive: () => void;
}

/**
 * The inactivity timer: warns `warningMs` before the timeout with a second-by-second countdown, resets on
 * activity here or in any other tab (BroadcastChannel 'portal-session'), and calls `onExpire` when the time is
 * up. One timer runs at a time; activity only moves the deadline, so a mouse move costs an assignment.
 */
export function useInactivityTimer({
  timeoutMs,
  onExpire,
  warningMs = WARNING_BEFORE_MS,
  clock = systemClock,
  target = window,
}: InactivityOptions): InactivityState {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [expired, setExpired] = useState(false);
  const onExpireRef = useRef(onExpire);
  onExpireRef.current = onExpire;
  const activityRef = useRef<() => void>(() => {});

  useEffect(() => {
    if (!timeoutMs || timeoutMs <= 0) return;
    // A warning longer than half the timeout would show almost all the time.
    const warnFor = Math.min(warningMs, timeoutMs / 2);
    let lastActivity = clock.now();
    let lastBroadcast = Number.NEGATIVE_INFINITY;
    let timer: unknown = null;
    let warning = false;
    let done = false;

    const schedule = (ms: number) => {
      if (timer !== null) clock.clearTimeout(timer);
      timer = clock.setTimeout(check, Math.max(0, ms));
    };

    function check() {
      timer = null;
      if (done) return;
      const remaining = lastActivity + timeoutMs! - clock.now();
      if (remaining <= 0) {
        done = true;
        warning = false;
        setSecondsLeft(null);
        setExpired(true);
        onExpireRef.current();
        return;
      }
      if (remaining <= warnFor) {
        warning = true;
        setSecondsLeft(Math.ceil(remaining / 1000));
        // Wake at the next whole second of the countdown (or at the deadline).
        schedule(remaining % 1000 || 1000);
        return;
      }
      if (warning) {
        warning = false;
        setSecondsLeft(null);
      }
      schedule(remaining - warnFor);
    }

    const touch = (broadcast: boolean) => {
      if (done) return;
      const now = clock.now();
      lastActivity = now;
      if (broadcast && (warning || now - lastBroadcast >= BROADCAST_INTERVAL_MS)) {
        lastBroadcast = now;
        postSessionMessage({ type: 'activity' });
      }
      // Without a warning on screen the pending timer finds the new deadline when it fires.
      if (warning) check();
    };

    const onActivity = () => touch(true);
    const onVisible = () => {
      // Timers of hidden tabs are throttled: look at the clock as soon as the tab is seen again.
      if (target.document.visibilityState === 'visible' && !done) check();
    };
    activityRef.current = onActivity;

    for (const type of ACTIVITY_EVENTS) target.addEventListener(type, onActivity, { passive: true, capture: true });
    target.document.addEventListener('visibilitychange', onVisible);
    const unsubscribe = subscribeSessionMessages((message) => {
      if (message.type === 'activity') touch(false);
    });
    setExpired(false);
    check();

    return () => {
      done = true;
      if (timer !== null) clock.clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, onActivity, { capture: true });
      target.document.removeEventListener('visibilitychange', onVisible);
      unsubscribe();
      activityRef.current = () => {};
      setSecondsLeft(null);
    };
  }, [timeoutMs, warningMs, clock, target]);

  const stayActive = useCallback(() => activityRef.current(), []);
  return { secondsLeft, expired, stayActive };
}
