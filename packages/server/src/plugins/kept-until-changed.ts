import pg from 'pg';

/** PostgreSQL's channel on which the triggers of migration 0030 say that sessions or access changed. */
export const ACCESS_CHANNEL = 'portal_access_changed';
/** PostgreSQL's channel on which the triggers of migration 0031 say that any other data changed. */
export const DATA_CHANNEL = 'portal_data_changed';

interface Entry<T> {
  value: T;
  at: number;
  weight: number;
}

/**
 * What a read found, kept between requests by this instance until PostgreSQL says it may have changed: the session
 * statement's row (decision record 029) and whole answers of the hottest reads (decision record 032). It is
 * forgotten, whole:
 * - when any instance changes what it was read from: the triggers of migrations 0030 (sessions and access) and 0031
 *   (everything else) NOTIFY at commit on the `channels` it listens to, and every instance's listener clears
 *   (milliseconds; the multi-instance test holds it to a second);
 * - when this instance changes data (`clear()` after every state-changing request and every session write), so that
 *   its own next read never sees what it kept before;
 * - after `ttlMs` in any case.
 * While the listener is not connected nothing is kept or served: a notice missed cannot leave a stale entry behind.
 * The listener has a connection of its own, with the pool's settings but not from it: it takes nothing from the
 * requests' connections.
 * A read that began before a clear does not store what it read (`generation`).
 */
export class KeptUntilChanged<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private weight = 0;
  private listening = false;
  private generationNumber = 0;
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      pool: pg.Pool;
      log: { warn(obj: unknown, msg: string): void };
      /** 0 keeps nothing (the API tests, which change data behind the server's back). */
      ttlMs: number;
      /** At most this many entries, and at most `maxWeight` in all as `weigh` counts them (bytes, say). */
      max: number;
      maxWeight?: number;
      weigh?: (value: T) => number;
      /** What it listens to; ACCESS_CHANNEL alone by default. */
      channels?: readonly string[];
    },
  ) {}

  private get channels(): readonly string[] {
    return this.options.channels ?? [ACCESS_CHANNEL];
  }

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
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Keeps `value` if nothing was forgotten since `generation` was read. Requests share it: the caller freezes it
   * (`deepFreeze`) or never changes it.
   */
  set(key: string, value: T, generation: number): void {
    if (!this.enabled || generation !== this.generationNumber) return;
    const weight = this.options.weigh?.(value) ?? 0;
    const maxWeight = this.options.maxWeight ?? Number.POSITIVE_INFINITY;
    if (weight > maxWeight) return;
    this.delete(key);
    // The oldest entries go first (a Map iterates in insertion order).
    while (this.entries.size > 0 && (this.entries.size >= this.options.max || this.weight + weight > maxWeight)) {
      this.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, at: performance.now(), weight });
    this.weight += weight;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  clear(): void {
    this.generationNumber++;
    this.entries.clear();
    this.weight = 0;
  }

  async start(): Promise<void> {
    if (this.options.ttlMs <= 0 || this.stopped) return;
    const client = new pg.Client(this.options.pool.options);
    client.on('notification', (message) => {
      if (this.channels.includes(message.channel)) this.clear();
    });
    client.on('error', (error) => this.reconnect(error));
    client.on('end', () => this.reconnect(new Error('connection ended')));
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`listen ${channel}`);
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
    this.options.log.warn(
      { err: error, channels: this.channels },
      'change listener lost its connection; keeping nothing until it is back',
    );
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners('end');
    client?.end().catch(() => {});
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.start(), 2_000);
    this.retry.unref();
  }
}

/** Freezes `value` to the bottom: what is kept is shared between requests. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
