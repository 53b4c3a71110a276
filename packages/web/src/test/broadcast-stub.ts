import { vi } from 'vitest';
import { resetSessionChannelForTests } from '../lib/session-channel';

/**
 * An in-memory BroadcastChannel: like the browser's, a message reaches every other open channel of the same name
 * (never the sender), asynchronously. `otherTab()` opens the channel another tab would use.
 */
class FakeBroadcastChannel extends EventTarget {
  static open = new Set<FakeBroadcastChannel>();
  onmessage: ((event: MessageEvent) => void) | null = null;
  closed = false;

  constructor(readonly name: string) {
    super();
    FakeBroadcastChannel.open.add(this);
  }

  postMessage(data: unknown): void {
    if (this.closed) throw new DOMException('Channel is closed', 'InvalidStateError');
    for (const other of FakeBroadcastChannel.open) {
      if (other === this || other.name !== this.name) continue;
      queueMicrotask(() => {
        if (other.closed) return;
        const event = new MessageEvent('message', { data });
        other.onmessage?.(event);
        other.dispatchEvent(event);
      });
    }
  }

  close(): void {
    this.closed = true;
    FakeBroadcastChannel.open.delete(this);
  }
}

export function stubBroadcastChannel() {
  resetSessionChannelForTests();
  FakeBroadcastChannel.open.clear();
  vi.stubGlobal('BroadcastChannel', FakeBroadcastChannel);
  return {
    /** The channel of another tab: `received` collects what this tab sends. */
    otherTab(name = 'portal-session') {
      const channel = new FakeBroadcastChannel(name);
      const received: unknown[] = [];
      channel.onmessage = (event) => received.push(event.data);
      return { post: (data: unknown) => channel.postMessage(data), received, close: () => channel.close() };
    },
  };
}
