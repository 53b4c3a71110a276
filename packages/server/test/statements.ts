import type pg from 'pg';

/**
 * The statements `run` sends through the pool (outside transactions), by their SQL text: what a read costs in round
 * trips to PostgreSQL (issue 31).
 */
export async function statementsOf(pool: pg.Pool, run: () => Promise<unknown>): Promise<string[]> {
  const original = pool.query;
  const texts: string[] = [];
  pool.query = function (this: pg.Pool, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    texts.push(typeof first === 'string' ? first : first.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pool.query;
  try {
    await run();
  } finally {
    pool.query = original;
  }
  return texts;
}
