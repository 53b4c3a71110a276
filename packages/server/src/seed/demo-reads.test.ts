import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { statementsOf } from '../../test/statements.js';
import { DEMO_PASSWORD, DEMO_PROJECT, seedDemoData } from './demo.js';

/**
 * What the heavy reads of bench:floor cost in statements on the demo facility, counted as its members make them
 * (issue 31, decision record 027): the session with the project's access is one, each read's own data the rest.
 * Fewer is fine (lower the number); more fails, so a new query on these paths is a decision, not an accident.
 */
describe('the statements of the heavy reads', () => {
  const ctx = useTestApp();
  const p = DEMO_PROJECT.id;
  const M = `/api/projects/${p}/monitoring`;

  async function signedIn(email: string) {
    const agent = createAgent(ctx.app);
    const answer = await agent.login(email, DEMO_PASSWORD, { accept_terms: true });
    expect(answer.statusCode).toBe(200);
    return agent;
  }

  /** The statements of a second GET of `url` (the first warms what is cached), with its answer. */
  async function cost(agent: Awaited<ReturnType<typeof signedIn>>, url: string) {
    expect((await agent.get(url)).statusCode).toBe(200);
    let body: unknown;
    const texts = await statementsOf(ctx.db.handle.pool, async () => {
      const answer = await agent.get(url);
      expect(answer.statusCode).toBe(200);
      body = answer.json();
    });
    expect(texts[0]).toMatch(/from "sessions"/);
    return { statements: texts.length, body };
  }

  it('reads the compliance tree and a chart series in three, charts, a policy and My reviews in two', async () => {
    await seedDemoData(ctx.db.handle.db, randomBytes(32), ctx.clock.now());
    const one = async (sql: string) => (await ctx.db.handle.pool.query<{ id: number }>(sql, [p])).rows[0]!.id;
    const assessmentId = await one('select id from std_assessments where project_id = $1 order by id limit 1');
    const pageId = await one(
      'select page_id as id from mon_charts where project_id = $1 group by page_id order by count(*) desc limit 1',
    );
    const member = await signedIn('member@example.com');

    // Session, the assessment with the link counts (the monitoring pages it may see are those this instance keeps for
    // the project's version, decision record 028), the nodes with their elements.
    const tree = await cost(member, `/api/projects/${p}/standards/assessments/${assessmentId}/tree`);
    const rows = (tree.body as { rows: { req: { links: { policy: number } } | null }[] }).rows;
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.some((row) => (row.req?.links.policy ?? 0) > 0)).toBe(true);
    expect(tree.statements).toBe(3);

    // Session, the measure, the dataset with the cached series and the measure's extras.
    const { charts } = (await member.get(`${M}/pages/${pageId}/charts`)).json() as {
      charts: { measure: { id: number }; chart_type: string }[];
    };
    const chart = charts[0]!;
    const series = await cost(member, `${M}/measures/${chart.measure.id}/series?chart=${chart.chart_type}`);
    expect((series.body as { points: unknown[] }).points.length).toBeGreaterThan(0);
    expect(series.statements).toBe(3);

    // Session, the page levels, the live pages with their owners and updaters.
    expect((await cost(member, `${M}/pages/${pageId}`)).statements).toBe(3);
    // Session and the charts.
    expect((await cost(member, `${M}/pages/${pageId}/charts`)).statements).toBe(2);

    // Session, and the policy with its department, owner, approval, history and the versions the member may see.
    const documentId = await one(
      `select id from policy_documents where project_id = $1 and current_version_id is not null
        and department_id is not null order by id limit 1`,
    );
    const policy = await cost(member, `/api/projects/${p}/policy-management/documents/${documentId}`);
    const detail = policy.body as { current_version: { content: string } | null; versions: unknown[] };
    expect(detail.current_version?.content.length).toBeGreaterThan(0);
    expect(detail.versions.length).toBeGreaterThan(0);
    expect(policy.statements).toBe(2);

    // Session, and the reviews with their questions and answers.
    const reviewer = await signedIn('reviewer@example.com');
    const mine = await cost(reviewer, `/api/projects/${p}/chart-review/me/assignments`);
    const assignments = (mine.body as { assignments: { progress: { answered: number; total: number } }[] }).assignments;
    expect(assignments.length).toBeGreaterThan(0);
    expect(assignments.some((a) => a.progress.answered > 0 && a.progress.total > 0)).toBe(true);
    expect(mine.statements).toBe(2);
  }, 60_000);
});
