import pg from 'pg';

/** PostgreSQL's channel on which the triggers of migration 0030 say that sessions or access changed. */
export const ACCESS_CHANNEL = 'portal_access_changed';

interface Entry<T> {
  value: T;
  at: number;
}

/**
 * What the session statement read, kept between requests by this instance (decision record 029): a signed-in read
 * then asks PostgreSQL only for its data. It is forgotten, whole:
 * - when any instance changes a session, a user, a membership, a role, a rule or a project: the triggers of
 *   migration 0030 NOTIFY at commit and every instance's listener clears (milliseconds; the multi-instance test holds
 *   it to a second);
 * - when this instance changes data (`clear()` after every state-changing request and every session write), so that
 *   its own next read never sees what it kept before;
 * - after `ttlMs` in any case.
 * While the listener is not connected nothing is kept or served: a notice missed cannot leave a stale entry behind.
 * The listener has a connection of its own, with the pool's settings but not from it: it takes nothing from the
 * requests' connections.
 * A read that began before a clear does not store what it read (`generation`).
 */
export class AccessCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private listening = false;
  private generationNumber = 0;
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      pool: pg.Pool;
      log: { warn(obj: unknown, msg: string): void };
      /** 0 keeps nothing (the API tests, which change access behind the server's back). */
      ttlMs: number;
      max: number;
    },
  ) {}

  get enabled(): boolean {
    return this.listening && this.options.ttlMs > 0;
  }

  /** Changes whenever what is kept is forgotten: a read stores its result only if it has not changed meanwhile. */
  get generation(): number {
    return this.generationNumber;
  }

  get(key: string): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (performance.now() - entry.at > this.options.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` (deep-frozen: requests share it) if nothing was forgotten since `generation` was read. */
  set(key: string, value: T, generation: number): void {
    if (!this.enabled || generation !== this.generationNumber) return;
    if (this.entries.size >= this.options.max) {
      // The oldest entry goes (a Map iterates in insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value: deepFreeze(value), at: performance.now() });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.generationNumber++;
    this.entries.clear();
  }

  async start(): Promise<void> {
    if (this.options.ttlMs <= 0 || this.stopped) return;
    const client = new pg.Client(this.options.pool.options);
    client.on('notification', (message) => {
      if (message.channel === ACCESS_CHANNEL) this.clear();
    });
    client.on('error', (error) => this.reconnect(error));
    client.on('end', () => this.reconnect(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${ACCESS_CHANNEL}`);
      this.client = client;
      // Whatever changed while nobody listened is unknown: start empty.
      this.clear();
      this.listening = true;
    } catch (error) {
      client.removeAllListeners();
      client.end().catch(() => {});
      this.reconnect(error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    this.clear();
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private reconnect(error: unknown): void {
    this.listening = false;
    this.clear();
    if (this.stopped) return;
    this.options.log.warn({ err: error }, 'access listener lost its connection; reading access for every request');
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners('end');
    client?.end().catch(() => {});
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.start(), 2_000);
    this.retry.unref();
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
