import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one hit of `key` in the current fixed window and says whether it is within `limit`. Kept in PostgreSQL so
 * the limit holds across server instances.
 */
export async function hitRateLimit(
  db: DbOrTx,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const { rows } = await db.execute<{ count: number }>(sql`
    insert into rate_limit_hits (key, window_start, count) values (${key}, ${windowStart.toISOString()}, 1)
    on conflict (key, window_start) do update set count = rate_limit_hits.count + 1
    returning count`);
  const count = Number(rows[0]?.count ?? 0);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= limit, retryAfterSeconds };
}
