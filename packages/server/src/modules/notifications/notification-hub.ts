import type pg from 'pg';
import { NOTIFY_CHANNEL } from './notifications.service.js';

/** A new notification for the user, or `sessionsEnded`: their sessions were ended (their streams check theirs now). */
export type HubEvent = { notificationId: number } | { sessionsEnded: true };
type Listener = (event: HubEvent) => void;

/**
 * One LISTEN connection per server instance; NOTIFY from any instance reaches the streams of the user on this one.
 * Reconnects after a lost connection (the web also polls, so a gap only delays).
 */
export class NotificationHub {
  private readonly listeners = new Map<number, Set<Listener>>();
  private client: pg.PoolClient | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: { warn(obj: unknown, msg: string): void },
    /** Runs for every notice before any stream hears of it. */
    private readonly beforeStreams: () => void = () => {},
  ) {}

  async start(): Promise<void> {
    try {
      const client = await this.pool.connect();
      client.on('notification', (message) => this.dispatch(message.payload));
      client.on('error', (error) => this.reconnect(error));
      await client.query(`listen ${NOTIFY_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.reconnect(error);
    }
  }

  subscribe(userId: number, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(userId);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.query(`unlisten ${NOTIFY_CHANNEL}`).catch(() => {});
      client.release();
    }
  }

  private dispatch(payload: string | undefined): void {
    try {
      const message = JSON.parse(payload ?? '') as { user_id: number; id?: number; sessions_ended?: boolean };
      const event: HubEvent | null = message.sessions_ended
        ? { sessionsEnded: true }
        : typeof message.id === 'number'
          ? { notificationId: message.id }
          : null;
      if (!event) return;
      this.beforeStreams();
      for (const listener of this.listeners.get(message.user_id) ?? []) listener(event);
    } catch {
      // Not ours: ignore.
    }
  }

  private reconnect(error: unknown): void {
    if (this.stopped) return;
    this.log.warn({ err: error }, 'notification listener lost its connection; reconnecting');
    this.client?.release(true);
    this.client = undefined;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.start(), 2_000);
    this.retry.unref();
  }
}
