/**
 * Tabs of the same browser tell each other about activity and sign-outs over one BroadcastChannel, so activity in
 * any tab keeps all tabs alive and a logout in one tab logs out all (issue 3, "Inactivity").
 */
export const SESSION_CHANNEL = 'portal-session';

export type SessionMessage = { type: 'activity' } | { type: 'login' } | { type: 'logout'; reason?: 'inactivity' };

type Listener = (message: SessionMessage) => void;

let channel: BroadcastChannel | null = null;
const listeners = new Set<Listener>();

function isSessionMessage(value: unknown): value is SessionMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'activity' || type === 'login' || type === 'logout';
}

function open(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (!isSessionMessage(event.data)) return;
    for (const listener of [...listeners]) listener(event.data);
  };
  return channel;
}

/** Tells the other tabs (never this one). */
export function postSessionMessage(message: SessionMessage): void {
  try {
    open()?.postMessage(message);
  } catch {
    // A closed channel (page unloading) has nobody left to tell.
  }
}

/** Listens to the other tabs; returns the unsubscribe function. */
export function subscribeSessionMessages(listener: Listener): () => void {
  open();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && channel) {
      channel.close();
      channel = null;
    }
  };
}

/** Tests: forget the channel so the next use opens one with the current BroadcastChannel implementation. */
export function resetSessionChannelForTests(): void {
  channel?.close();
  channel = null;
  listeners.clear();
}
