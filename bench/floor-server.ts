// The floor of bench/floor.ts, in a process of its own as the portal runs in its own: a bare Fastify + pg server
// that answers each read with the SQL the portal runs to produce that read's data (as PostgreSQL logged it: the same
// texts, in the same order, with the same values), as named prepared statements from a pool of 10, with no session,
// no project access and no permission check; the session, access and permission statements are left out, the rest
// is all there. Statements go one after the other. Rows go out as JSON, keyed by column. The monitoring pages the
// member may see are given (FloorIds.visiblePageIds), as the portal keeps them per project version. FLOOR_DATABASE_URL: the
// bench database; FLOOR_IDS: the records of the reads (FloorIds, JSON). Prints `listening <port>`.
// When the portal's data statements change, compare both with log_statement = 'all' on the bench database.
import Fastify from 'fastify';
import pg from 'pg';

export interface FloorIds {
  projectId: number;
  /** The project member who reads notifications, policies, standards and monitoring. */
  memberId: number;
  /** The chart reviewer of "My reviews". */
  reviewerId: number;
  documentId: number;
  tocProjectId: number;
  assessmentId: number;
  pageId: number;
  /** The page's charts in page order: what each asks of its measure's series. */
  charts: { measureId: number; chart: string; stratum: string }[];
  /** The monitoring pages the member may see (the portal works them out from page permissions). */
  visiblePageIds: number[];
}

const ids = JSON.parse(process.env.FLOOR_IDS ?? '') as FloorIds;
const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });
pool.on('error', () => {});

/**
 * Runs one statement, prepared once per connection under `name` (a text of its own needs a name of its own). Rows
 * come as arrays, as the portal reads them, and become objects keyed by column name (a name met twice in a row, as
 * two tables' "id", gets its position appended) so that no column is lost.
 */
async function q(name: string, text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const result = await pool.query<unknown[]>({ name, text, values, rowMode: 'array' });
  const keys: string[] = [];
  for (const [i, field] of result.fields.entries())
    keys.push(keys.includes(field.name) ? `${field.name}_${i}` : field.name);
  return result.rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) object[keys[i]!] = row[i];
    return object;
  });
}

/** `$from, ..., $(from + count - 1)`: the placeholders of an `in (...)` list as the portal writes it. */
const list = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

const app = Fastify({ logger: false });

/** Handlers at work: /flush-stats waits for none to be left (the end of a load leaves some in flight). */
let running = 0;
function get(url: string, handler: (params: Record<string, string>) => Promise<unknown>) {
  app.get(url, async (request) => {
    running += 1;
    try {
      return await handler(request.params as Record<string, string>);
    } finally {
      running -= 1;
    }
  });
}

// ------------------------------------------------------------------------------------------------ notifications

get('/notifications', async () => ({
  notifications: await q(
    'notifications',
    `select "notifications"."id", "notifications"."message", "notifications"."read_at", "notifications"."created_at", "notifications"."link", "projects"."name", "notifications"."project_id" from "notifications" left join "projects" on "projects"."id" = "notifications"."project_id" where ("notifications"."user_id" = $1 and "notifications"."read_at" is null and "notifications"."done_at" is null and "notifications"."project_id" = $2) order by "notifications"."created_at" desc, "notifications"."id" desc limit $3`,
    [ids.memberId, ids.projectId, 100],
  ),
}));

// ------------------------------------------------------------------------------------------------ a policy document

get('/policy-document', async () => {
  const p = ids.projectId;
  // The document with its department, owner, approval, number history, generation and the versions the member may
  // see (the text of the current and working versions only), in one statement.
  const [doc] = await q(
    'policy_document',
    `select "policy_documents"."id", "policy_documents"."project_id", "policy_documents"."number", "policy_documents"."title", "policy_documents"."department_id", "policy_documents"."owner_id", "policy_documents"."status", "policy_documents"."current_version_id", "policy_documents"."draft_version_id", "policy_documents"."review_interval_months", "policy_documents"."next_review_on", "policy_documents"."effective_on", "policy_documents"."archived_at", "policy_documents"."archived_by", "policy_documents"."replaced_by_id", "policy_documents"."review_reminded_at", "policy_documents"."created_at", "policy_documents"."created_by", "policy_documents"."updated_at", "policy_documents"."updated_by", "policy_departments"."id", "policy_departments"."name", "policy_departments"."code", (select json_build_object('id', "users"."id", 'name', coalesce(nullif(trim("users"."first_name" || ' ' || "users"."last_name"), ''), "users"."username")) from "users" where "users"."id" = "policy_documents"."owner_id"), coalesce((select max("policy_workflow_events"."created_at") from "policy_workflow_events" where "policy_workflow_events"."project_id" = "policy_documents"."project_id" and "policy_workflow_events"."version_id" = "policy_documents"."current_version_id" and "policy_workflow_events"."action" = 'published'), (select max("policy_signatures"."signed_at") from "policy_signatures" where "policy_signatures"."project_id" = "policy_documents"."project_id" and "policy_signatures"."version_id" = "policy_documents"."current_version_id" and "policy_signatures"."voided_at" is null)), (select json_agg(json_build_object('from', "policy_number_history"."from_number", 'to', "policy_number_history"."to_number", 'by_id', "policy_number_history"."changed_by", 'by_name', coalesce(nullif(trim("users"."first_name" || ' ' || "users"."last_name"), ''), "users"."username"), 'at', "policy_number_history"."changed_at") order by "policy_number_history"."changed_at" desc, "policy_number_history"."id" desc) from "policy_number_history" left join "users" on "users"."id" = "policy_number_history"."changed_by" where "policy_number_history"."project_id" = "policy_documents"."project_id" and "policy_number_history"."document_id" = "policy_documents"."id"), (select json_build_object('template_id', "pg_generations"."template_id", 'template_title', "pg_template_versions"."body"->>'title', 'template_version', "pg_template_versions"."version", 'at', "pg_generations"."created_at") from "pg_generations" join "pg_template_versions" on "pg_template_versions"."id" = "pg_generations"."template_version_id" where "pg_generations"."project_id" = "policy_documents"."project_id" and "pg_generations"."document_id" = "policy_documents"."id" order by "pg_generations"."created_at" desc, "pg_generations"."id" desc limit 1), (select coalesce(json_agg(json_build_object('id', "policy_versions"."id", 'version', "policy_versions"."version", 'state', "policy_versions"."state", 'change_summary', "policy_versions"."change_summary", 'effective_on', "policy_versions"."effective_on", 'author_id', "policy_versions"."author_id", 'author_name', coalesce(nullif(trim("users"."first_name" || ' ' || "users"."last_name"), ''), "users"."username"), 'created_at', "policy_versions"."created_at", 'updated_at', "policy_versions"."updated_at", 'revision', "policy_versions"."revision", 'file_id', "stored_files"."id", 'file_name', "stored_files"."file_name", 'file_type', "stored_files"."content_type", 'content', case when "policy_versions"."id" in ("policy_documents"."current_version_id", "policy_documents"."draft_version_id") then "policy_versions"."content" end) order by "policy_versions"."version" desc), '[]') from "policy_versions" left join "users" on "users"."id" = "policy_versions"."author_id" left join "stored_files" on "stored_files"."id" = "policy_versions"."source_file_id" where "policy_versions"."project_id" = "policy_documents"."project_id" and "policy_versions"."document_id" = "policy_documents"."id" and ("policy_versions"."state" in ($1, $2) or exists (select 1 from "policy_workflow_requests" r where r.project_id = $3
          and r.version_id = "policy_versions"."id" and r.user_id = $4))) from "policy_documents" left join "policy_departments" on ("policy_departments"."project_id" = "policy_documents"."project_id" and "policy_departments"."id" = "policy_documents"."department_id") where ("policy_documents"."project_id" = $5 and "policy_documents"."id" = $6 and ("policy_documents"."current_version_id" is not null or exists (select 1 from "policy_workflow_requests" r where r.project_id = $7
    and r.document_id = "policy_documents"."id" and r.user_id = $8)))`,
    ['published', 'superseded', p, ids.memberId, p, ids.documentId, p, ids.memberId],
  );
  if (!doc) throw new Error('no such document');
  return { document: doc };
});

// ------------------------------------------------------------------------------------------------ the policy TOC

get('/policy-toc', async () =>
  q(
    'policy_toc',
    `select "policy_documents"."id", "policy_documents"."number", "policy_documents"."title", "policy_documents"."status", "policy_documents"."department_id", "working_version"."state", "policy_documents"."next_review_on", "policy_documents"."updated_at" from "policy_documents" left join "policy_versions" "working_version" on ("working_version"."project_id" = $1 and "working_version"."id" = "policy_documents"."draft_version_id") where ("policy_documents"."project_id" = $2 and "policy_documents"."status" <> $3)`,
    [ids.tocProjectId, ids.tocProjectId, 'archived'],
  ),
);

// ------------------------------------------------------------------------------------------------ the standards tree

get('/standards-tree', async () => {
  const p = ids.projectId;
  // The assessment, its framework and the counts of the links whose targets the member may see (the monitoring pages
  // are those the portal keeps for the project), in one statement; then the nodes.
  const pages = ids.visiblePageIds;
  const pagesIn = pages.length ? `"mon_measures"."page_id" in (${list(6, pages.length)})` : 'false';
  const [assessment] = await q(
    `std_assessment_links_${pages.length}`,
    `select "std_assessments"."id", "std_assessments"."project_id", "std_assessments"."framework_id", "std_assessments"."name", "std_assessments"."kind", "std_assessments"."scope_note", "std_assessments"."survey_window_start", "std_assessments"."survey_window_end", "std_assessments"."upgraded_from_id", "std_assessments"."created_at", "std_assessments"."created_by", "std_frameworks"."id", "std_frameworks"."project_id", "std_frameworks"."code", "std_frameworks"."name", "std_frameworks"."publisher", "std_frameworks"."edition", "std_frameworks"."text_policy", "std_frameworks"."licence_note", "std_frameworks"."public_url", "std_frameworks"."as_of", "std_frameworks"."created_at", "std_frameworks"."created_by", "previous"."id", "previous"."name", (select coalesce(json_agg(json_build_array(l.node_id, l.target_type, l.n)),
    '[]') from (select "trace_links"."node_id" as node_id, "trace_links"."target_type" as target_type, count(*)::int as n
    from "trace_links" where "trace_links"."project_id" = $1 and case "trace_links"."target_type"
    when 'policy' then exists (select 1 from "policy_documents" where "policy_documents"."project_id" = $2
      and "policy_documents"."id" = "trace_links"."target_id" and ("policy_documents"."current_version_id" is not null or exists (select 1 from "policy_workflow_requests" r where r.project_id = $3
    and r.document_id = "policy_documents"."id" and r.user_id = $4)))
    when 'measure' then exists (select 1 from "mon_measures" where "mon_measures"."project_id" = $5
      and "mon_measures"."id" = "trace_links"."target_id" and ${pagesIn})
    else true end
    group by 1, 2) l) from "std_assessments" inner join "std_frameworks" on "std_frameworks"."id" = "std_assessments"."framework_id" left join "std_assessments" "previous" on ("previous"."id" = "std_assessments"."upgraded_from_id" and "previous"."project_id" = $${6 + pages.length}) where ("std_assessments"."project_id" = $${7 + pages.length} and "std_assessments"."id" = $${8 + pages.length})`,
    [p, p, p, ids.memberId, p, ...pages, p, p, ids.assessmentId],
  );
  if (!assessment) throw new Error('no such assessment');
  // The nodes with their elements, owners and comment counts, as one JSON array of tuples.
  const [nodes] = await q(
    'std_tree_nodes',
    `select coalesce(json_agg(json_build_array("std_nodes"."id", "std_nodes"."parent_id", "std_nodes"."ref_id", "std_nodes"."title",
        "std_nodes"."node_type", "std_nodes"."assessable", "std_nodes"."depth", "std_nodes"."in_force_from", "std_req_assessments"."id", "std_req_assessments"."result", "std_req_assessments"."status", "std_req_assessments"."owner_id",
        coalesce(nullif(trim("users"."first_name" || ' ' || "users"."last_name"), ''), "users"."username"), "std_req_assessments"."due_date", coalesce("n", 0)) order by "std_nodes"."position"), '[]') from "std_nodes" left join "std_req_assessments" on ("std_req_assessments"."node_id" = "std_nodes"."id" and "std_req_assessments"."project_id" = $1 and "std_req_assessments"."assessment_id" = $2) left join "users" on "users"."id" = "std_req_assessments"."owner_id" left join (select "req_assessment_id", count(*)::int as "n" from "std_comments" where "std_comments"."project_id" = $3 group by "std_comments"."req_assessment_id") "comments" on "comments"."req_assessment_id" = "std_req_assessments"."id" where "std_nodes"."framework_id" = $4`,
    [p, assessment.id, p, assessment.framework_id],
  );
  return { assessment, nodes };
});

// ------------------------------------------------------------------------------------------------ a monitoring page

/** The measure's dataset, its cached series, and its targets, benchmarks, phases and annotations when `extras`. */
const SERIES_INPUTS = `select (select json_build_object('id', id, 'version', version, 'rowCount', row_count,
        'columns', columns) from "mon_datasets" where project_id = $1 and id = $2
        and deleted_at is null), (select
        json_build_object('inputHash', input_hash, 'result', result, 'computedAt', computed_at,
          'computeMs', compute_ms)
        from "mon_series" where project_id = $3 and measure_id = $4
          and stratum = $5 and chart = $6), null from (select 1) as one`;
const SERIES_INPUTS_WITH_EXTRAS = `select (select json_build_object('id', id, 'version', version, 'rowCount', row_count,
        'columns', columns) from "mon_datasets" where project_id = $1 and id = $2
        and deleted_at is null), (select
        json_build_object('inputHash', input_hash, 'result', result, 'computedAt', computed_at,
          'computeMs', compute_ms)
        from "mon_series" where project_id = $3 and measure_id = $4
          and stratum = $5 and chart = $6), json_build_object(
    'targets', (select coalesce(json_agg(json_build_object('id', id, 'value', value, 'effective_from', effective_from, 'kind', kind) order by effective_from, id), '[]') from "mon_targets"
      where project_id = $7 and measure_id = $8),
    'benchmarks', (select coalesce(json_agg(json_build_object('id', id, 'source', source, 'statistic', statistic, 'percentile', percentile, 'value', value,
        'period_label', period_label, 'as_of', as_of, 'spec_match', spec_match, 'citation_url', citation_url,
        'note', note) order by as_of desc, id), '[]') from "mon_benchmarks"
      where project_id = $9 and measure_id = $10),
    'phases', (select coalesce(json_agg(json_build_object('id', id, 'start_period', start_period, 'label', label, 'reason', reason) order by start_period, id), '[]') from "mon_phases"
      where project_id = $11 and measure_id = $12),
    'annotations', (select coalesce(json_agg(json_build_object('id', id, 'period_start', period_start, 'kind', kind, 'text', text,
        'exclude_from_limits', exclude_from_limits) order by period_start, id), '[]') from "mon_annotations"
      where project_id = $13 and measure_id = $14)) from (select 1) as one`;

get('/monitoring/page', async () => {
  const p = ids.projectId;
  const levels = await q(
    'mon_levels',
    `select "id", "project_id", "depth", "name", "icon", "may_hold_measures", "created_at", "created_by", "updated_at", "updated_by" from "mon_page_levels" where "mon_page_levels"."project_id" = $1 order by "mon_page_levels"."depth" asc`,
    [p],
  );
  const pages = await q(
    'mon_pages_full',
    `select "mon_pages"."id", "mon_pages"."project_id", "mon_pages"."parent_id", "mon_pages"."position", "mon_pages"."depth", "mon_pages"."number", "mon_pages"."title", "mon_pages"."status", "mon_pages"."owner_id", "mon_pages"."introduction", "mon_pages"."benchmarks", "mon_pages"."parameters_and_metrics", "mon_pages"."restricted", "mon_pages"."version", "mon_pages"."deleted_at", "mon_pages"."deleted_by", "mon_pages"."created_at", "mon_pages"."created_by", "mon_pages"."updated_at", "mon_pages"."updated_by", coalesce(nullif(trim("users"."first_name" || ' ' || "users"."last_name"), ''), "users"."username"), coalesce(nullif(trim("updater"."first_name" || ' ' || "updater"."last_name"), ''), "updater"."username") from "mon_pages" left join "users" on "users"."id" = "mon_pages"."owner_id" left join "users" "updater" on "updater"."id" = "mon_pages"."updated_by" where ("mon_pages"."project_id" = $1 and "mon_pages"."deleted_at" is null)`,
    [p],
  );
  const page = pages.find((row) => row.id === ids.pageId);
  if (!page) throw new Error('no such page');
  // The page with its ancestors (the breadcrumb) and its children.
  const byId = new Map(pages.map((row) => [row.id, row]));
  const ancestors = [];
  for (let at = byId.get(page.parent_id); at; at = byId.get(at.parent_id)) ancestors.unshift(at);
  const children = pages.filter((row) => row.parent_id === page.id);
  return { page, ancestors, children, levels };
});

get('/monitoring/insights', async () => ({
  insights: await q(
    'mon_insights',
    `select "mon_insights"."id", "mon_insights"."project_id", "mon_insights"."page_id", "mon_insights"."title", "mon_insights"."body", "mon_insights"."status", "mon_insights"."author_id", "mon_insights"."published_at", "mon_insights"."version", "mon_insights"."deleted_at", "mon_insights"."created_at", "mon_insights"."updated_at", "mon_insights"."updated_by", coalesce(nullif(trim("insight_author"."first_name" || ' ' || "insight_author"."last_name"), ''), "insight_author"."username") from "mon_insights" left join "users" "insight_author" on "insight_author"."id" = "mon_insights"."author_id" where ("mon_insights"."project_id" = $1 and "mon_insights"."page_id" = $2 and "mon_insights"."deleted_at" is null) order by case when "mon_insights"."status" = 'draft' then 0 else 1 end, coalesce("mon_insights"."published_at", "mon_insights"."updated_at") desc, "mon_insights"."id" desc`,
    [ids.projectId, ids.pageId],
  ),
}));

get('/monitoring/measure-summary', async () => {
  const p = ids.projectId;
  // The page's measures with their targets, benchmarks, phases and annotations, in one statement.
  const measures = await q(
    'mon_page_measures',
    `select "id", "project_id", "page_id", "dataset_id", "name", "type", "numerator", "denominator", "value_expr", "multiplier", "unit_label", "direction", "grain", "strata_keys", "definition", "chart_default", "rule_profile", "ihi_runs_test", "astronomical_point", "baseline_from", "baseline_to", "formula_version", "formula_hash", "position", "version", "deleted_at", "created_at", "created_by", "updated_at", "updated_by", json_build_object(
    'targets', (select coalesce(json_agg(json_build_object('id', id, 'value', value, 'effective_from', effective_from, 'kind', kind) order by effective_from, id), '[]') from "mon_targets"
      where project_id = $1 and measure_id = "mon_measures"."id"),
    'benchmarks', (select coalesce(json_agg(json_build_object('id', id, 'source', source, 'statistic', statistic, 'percentile', percentile, 'value', value,
        'period_label', period_label, 'as_of', as_of, 'spec_match', spec_match, 'citation_url', citation_url,
        'note', note) order by as_of desc, id), '[]') from "mon_benchmarks"
      where project_id = $2 and measure_id = "mon_measures"."id"),
    'phases', (select coalesce(json_agg(json_build_object('id', id, 'start_period', start_period, 'label', label, 'reason', reason) order by start_period, id), '[]') from "mon_phases"
      where project_id = $3 and measure_id = "mon_measures"."id"),
    'annotations', (select coalesce(json_agg(json_build_object('id', id, 'period_start', period_start, 'kind', kind, 'text', text,
        'exclude_from_limits', exclude_from_limits) order by period_start, id), '[]') from "mon_annotations"
      where project_id = $4 and measure_id = "mon_measures"."id")) from "mon_measures" where ("mon_measures"."project_id" = $5 and "mon_measures"."page_id" = $6 and "mon_measures"."deleted_at" is null) order by "mon_measures"."position" asc, "mon_measures"."id" asc`,
    [p, p, p, p, p, ids.pageId],
  );
  const series = [];
  for (const measure of measures) {
    series.push(
      await q('mon_series_inputs', SERIES_INPUTS, [p, measure.dataset_id, p, measure.id, '', measure.chart_default]),
    );
  }
  const datasetIds = [...new Set(measures.map((m) => m.dataset_id).filter((id) => id !== null))];
  const datasets = datasetIds.length
    ? await q(
        `mon_dataset_columns_${datasetIds.length}`,
        `select "id", "columns" from "mon_datasets" where ("mon_datasets"."project_id" = $1 and "mon_datasets"."id" in (${list(2, datasetIds.length)}))`,
        [p, ...datasetIds],
      )
    : [];
  return { measures, series, datasets };
});

get('/monitoring/charts', async () => ({
  charts: await q(
    'mon_charts',
    `select "mon_charts"."id", "mon_charts"."page_id", "mon_charts"."title", "mon_charts"."chart_type", "mon_charts"."options", "mon_charts"."position", "mon_charts"."version", "mon_charts"."updated_at", "mon_measures"."id", "mon_measures"."name", "mon_measures"."type" from "mon_charts" inner join "mon_measures" on ("mon_measures"."id" = "mon_charts"."measure_id" and "mon_measures"."project_id" = "mon_charts"."project_id" and "mon_measures"."deleted_at" is null) where ("mon_charts"."project_id" = $1 and "mon_charts"."page_id" = $2) order by "mon_charts"."position" asc, "mon_charts"."id" asc`,
    [ids.projectId, ids.pageId],
  ),
}));

get('/monitoring/series/:index', async (params) => {
  const chart = ids.charts[Number(params.index)];
  if (!chart) throw new Error('no such chart');
  const p = ids.projectId;
  const [measure] = await q(
    'mon_measure',
    `select "id", "project_id", "page_id", "dataset_id", "name", "type", "numerator", "denominator", "value_expr", "multiplier", "unit_label", "direction", "grain", "strata_keys", "definition", "chart_default", "rule_profile", "ihi_runs_test", "astronomical_point", "baseline_from", "baseline_to", "formula_version", "formula_hash", "position", "version", "deleted_at", "created_at", "created_by", "updated_at", "updated_by" from "mon_measures" where ("mon_measures"."project_id" = $1 and "mon_measures"."id" = $2 and "mon_measures"."deleted_at" is null)`,
    [p, chart.measureId],
  );
  if (!measure) throw new Error('no such measure');
  const m = chart.measureId;
  const [inputs] = await q('mon_series_inputs_extras', SERIES_INPUTS_WITH_EXTRAS, [
    p,
    measure.dataset_id,
    p,
    m,
    chart.stratum,
    chart.chart,
    p,
    m,
    p,
    m,
    p,
    m,
    p,
    m,
  ]);
  return { measure, inputs };
});

// ------------------------------------------------------------------------------------------------ my reviews

get('/my-reviews', async () => ({
  assignments: await q(
    'cr_my_assignments',
    `select "cr_assignments"."id", "cr_assignments"."project_id", "cr_assignments"."case_id", "cr_assignments"."program_id", "cr_assignments"."tool_version_id", "cr_assignments"."reviewer_id", "cr_assignments"."role", "cr_assignments"."blind", "cr_assignments"."due_at", "cr_assignments"."status", "cr_assignments"."version", "cr_assignments"."started_at", "cr_assignments"."submitted_at", "cr_assignments"."return_reason", "cr_assignments"."returned_at", "cr_assignments"."returned_by", "cr_assignments"."created_at", "cr_assignments"."updated_at", "cr_cases"."case_code", "cr_cases"."unit", "cr_cases"."period_start", "cr_programs"."name", (select
        coalesce(json_agg(json_build_object('id', q.id, 'key', q.key, 'show_if', q.show_if, 'weight', q.weight,
          'critical', q.critical, 'answered', a.question_id is not null, 'value', a.value) order by q.position, q.id),
          '[]')
        from "cr_questions" q left join "cr_answers" a on a.project_id = q.project_id
          and a.assignment_id = "cr_assignments"."id" and a.question_id = q.id
        where q.project_id = $1 and q.tool_version_id = "cr_assignments"."tool_version_id") from "cr_assignments" inner join "cr_cases" on ("cr_cases"."project_id" = "cr_assignments"."project_id" and "cr_cases"."id" = "cr_assignments"."case_id") inner join "cr_programs" on ("cr_programs"."project_id" = "cr_assignments"."project_id" and "cr_programs"."id" = "cr_assignments"."program_id") where ("cr_assignments"."project_id" = $2 and "cr_assignments"."reviewer_id" = $3)`,
    [ids.projectId, ids.projectId, ids.reviewerId],
  ),
}));

// ------------------------------------------------------------------------------------------------ the bench's own

/**
 * Once the requests in flight are answered (all but this one), flushes the statistics each pooled connection holds
 * back (PostgreSQL writes them at most once a second, and those of an idle connection within 10 s).
 */
app.post('/flush-stats', async () => {
  for (let quiet = 0, waited = 0; quiet < 10 && waited < 1000; waited++) {
    quiet = running > 0 ? 0 : quiet + 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
  try {
    await Promise.all(clients.map((client) => client.query('select pg_stat_force_next_flush()')));
  } finally {
    for (const client of clients) client.release();
  }
  return { flushed: clients.length };
});

await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
