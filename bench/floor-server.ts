// The floor of bench/floor.ts, in a process of its own as the portal runs in its own: a bare Fastify + pg server
// that answers each read with the SQL the portal runs to produce that read's data (as PostgreSQL logged it: the same
// texts, in the same order, with the same values), as named prepared statements from a pool of 10, with no session,
// no project access and no permission check; the session, access and permission statements are left out, the rest
// is all there. Statements go one after the other (the few the portal sends at once, as a measure's targets,
// benchmarks, phases and annotations, go in turn here). Rows go out as JSON, keyed by column. FLOOR_DATABASE_URL: the
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
const today = () => new Date().toISOString().slice(0, 10);

const PERSON = (table: string) =>
  `coalesce(nullif(trim("${table}"."first_name" || ' ' || "${table}"."last_name"), ''), "${table}"."username")`;

/** A person's id and name, as the portal names people. */
const personRef = async (userId: unknown) =>
  userId === null
    ? null
    : ((
        await q(
          'person',
          `select "id", coalesce(nullif(trim("first_name" || ' ' || "last_name"), ''), "username") from "users" where "users"."id" = $1`,
          [userId],
        )
      )[0] ?? null);

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
  const [doc] = await q(
    'policy_document',
    `select "policy_documents"."id", "policy_documents"."project_id", "policy_documents"."number", "policy_documents"."title", "policy_documents"."department_id", "policy_documents"."owner_id", "policy_documents"."status", "policy_documents"."current_version_id", "policy_documents"."draft_version_id", "policy_documents"."review_interval_months", "policy_documents"."next_review_on", "policy_documents"."effective_on", "policy_documents"."search_text", "policy_documents"."title_vector", "policy_documents"."search_vector", "policy_documents"."archived_at", "policy_documents"."archived_by", "policy_documents"."replaced_by_id", "policy_documents"."review_reminded_at", "policy_documents"."created_at", "policy_documents"."created_by", "policy_documents"."updated_at", "policy_documents"."updated_by", "policy_departments"."id", "policy_departments"."name", "policy_departments"."code", (select json_build_object('id', "users"."id", 'name', ${PERSON('users')}) from "users" where "users"."id" = "policy_documents"."owner_id"), coalesce((select max("policy_workflow_events"."created_at") from "policy_workflow_events" where "policy_workflow_events"."project_id" = "policy_documents"."project_id" and "policy_workflow_events"."version_id" = "policy_documents"."current_version_id" and "policy_workflow_events"."action" = 'published'), (select max("policy_signatures"."signed_at") from "policy_signatures" where "policy_signatures"."project_id" = "policy_documents"."project_id" and "policy_signatures"."version_id" = "policy_documents"."current_version_id" and "policy_signatures"."voided_at" is null)), (select json_agg(json_build_object('from', "policy_number_history"."from_number", 'to', "policy_number_history"."to_number", 'by_id', "policy_number_history"."changed_by", 'by_name', ${PERSON('users')}, 'at', "policy_number_history"."changed_at") order by "policy_number_history"."changed_at" desc, "policy_number_history"."id" desc) from "policy_number_history" left join "users" on "users"."id" = "policy_number_history"."changed_by" where "policy_number_history"."project_id" = "policy_documents"."project_id" and "policy_number_history"."document_id" = "policy_documents"."id"), (select json_build_object('template_id', "pg_generations"."template_id", 'template_title', "pg_template_versions"."body"->>'title', 'template_version', "pg_template_versions"."version", 'at', "pg_generations"."created_at") from "pg_generations" join "pg_template_versions" on "pg_template_versions"."id" = "pg_generations"."template_version_id" where "pg_generations"."project_id" = "policy_documents"."project_id" and "pg_generations"."document_id" = "policy_documents"."id" order by "pg_generations"."created_at" desc, "pg_generations"."id" desc limit 1) from "policy_documents" left join "policy_departments" on ("policy_departments"."project_id" = "policy_documents"."project_id" and "policy_departments"."id" = "policy_documents"."department_id") where ("policy_documents"."project_id" = $1 and "policy_documents"."id" = $2 and ("policy_documents"."current_version_id" is not null or exists (select 1 from "policy_workflow_requests" r where r.project_id = $3 and r.document_id = "policy_documents"."id" and r.user_id = $4)))`,
    [p, ids.documentId, p, ids.memberId],
  );
  if (!doc) throw new Error('no such document');
  // The text of the current and the working version only.
  const withText = [doc.current_version_id, doc.draft_version_id].filter((id) => id !== null);
  const content = withText.length
    ? `case when "policy_versions"."id" in (${list(1, withText.length)}) then "policy_versions"."content" end`
    : 'null';
  const n = withText.length;
  const versions = await q(
    `policy_versions_${n}`,
    `select "policy_versions"."id", "policy_versions"."version", "policy_versions"."state", "policy_versions"."change_summary", "policy_versions"."effective_on", "policy_versions"."author_id", ${PERSON('users')}, "policy_versions"."created_at", "policy_versions"."updated_at", "policy_versions"."revision", "stored_files"."id", "stored_files"."file_name", "stored_files"."content_type", ${content} from "policy_versions" left join "users" on "users"."id" = "policy_versions"."author_id" left join "stored_files" on "stored_files"."id" = "policy_versions"."source_file_id" where ("policy_versions"."project_id" = $${n + 1} and "policy_versions"."document_id" = $${n + 2} and ("policy_versions"."state" in ($${n + 3}, $${n + 4}) or exists (select 1 from "policy_workflow_requests" r where r.project_id = $${n + 5} and r.version_id = "policy_versions"."id" and r.user_id = $${n + 6}))) order by "policy_versions"."version" desc`,
    [...withText, p, doc.id, 'published', 'superseded', p, ids.memberId],
  );
  return { document: doc, versions };
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
  const [assessment] = await q(
    'std_assessment',
    `select "id", "project_id", "framework_id", "name", "kind", "scope_note", "survey_window_start", "survey_window_end", "upgraded_from_id", "created_at", "created_by" from "std_assessments" where ("std_assessments"."project_id" = $1 and "std_assessments"."id" = $2)`,
    [p, ids.assessmentId],
  );
  if (!assessment) throw new Error('no such assessment');
  const nodes = await q(
    'std_nodes',
    `select "id", "parent_id", "ref_id", "title", "node_type", "assessable", "depth", "in_force_from" from "std_nodes" where "std_nodes"."framework_id" = $1 order by "std_nodes"."position" asc`,
    [assessment.framework_id],
  );
  const reqs = await q(
    'std_reqs',
    `select "std_req_assessments"."id", "std_req_assessments"."node_id", "std_req_assessments"."result", "std_req_assessments"."status", "std_req_assessments"."owner_id", ${PERSON('users')}, "std_req_assessments"."due_date" from "std_req_assessments" left join "users" on "users"."id" = "std_req_assessments"."owner_id" where ("std_req_assessments"."project_id" = $1 and "std_req_assessments"."assessment_id" = $2)`,
    [p, assessment.id],
  );
  const comments = await q(
    'std_comment_counts',
    `select "std_comments"."req_assessment_id", count(*)::int from "std_comments" inner join "std_req_assessments" on "std_req_assessments"."id" = "std_comments"."req_assessment_id" where ("std_comments"."project_id" = $1 and "std_req_assessments"."assessment_id" = $2) group by "std_comments"."req_assessment_id"`,
    [p, assessment.id],
  );
  const links = await q(
    'std_trace_links',
    `select "node_id", "target_type", "target_id" from "trace_links" where "trace_links"."project_id" = $1`,
    [p],
  );
  // The link targets the member may see: the portal keeps those of them that still exist and are visible.
  const targets = (type: string) => [
    ...new Set(links.filter((l) => l.target_type === type).map((l) => l.target_id as number)),
  ];
  const policies = targets('policy');
  const visiblePolicies = policies.length
    ? await q(
        `std_link_policies_${policies.length}`,
        `select "id" from "policy_documents" where ("policy_documents"."project_id" = $1 and "policy_documents"."id" in (${list(2, policies.length)}) and ("policy_documents"."current_version_id" is not null or exists (select 1 from "policy_workflow_requests" r where r.project_id = $${policies.length + 2} and r.document_id = "policy_documents"."id" and r.user_id = $${policies.length + 3})))`,
        [p, ...policies, p, ids.memberId],
      )
    : [];
  const measures = targets('measure');
  const pages = ids.visiblePageIds;
  const visibleMeasures = measures.length
    ? await q(
        `std_link_measures_${measures.length}_${pages.length}`,
        `select "id" from "mon_measures" where ("mon_measures"."project_id" = $1 and "mon_measures"."id" in (${list(2, measures.length)}) and "mon_measures"."page_id" in (${list(measures.length + 2, pages.length)}))`,
        [p, ...measures, ...pages],
      )
    : [];
  const assessments = await q(
    'std_assessment_list',
    `select "std_assessments"."id", "std_assessments"."project_id", "std_assessments"."framework_id", "std_assessments"."name", "std_assessments"."kind", "std_assessments"."scope_note", "std_assessments"."survey_window_start", "std_assessments"."survey_window_end", "std_assessments"."upgraded_from_id", "std_assessments"."created_at", "std_assessments"."created_by", "std_frameworks"."id", "std_frameworks"."project_id", "std_frameworks"."code", "std_frameworks"."name", "std_frameworks"."publisher", "std_frameworks"."edition", "std_frameworks"."text_policy", "std_frameworks"."licence_note", "std_frameworks"."public_url", "std_frameworks"."as_of", "std_frameworks"."created_at", "std_frameworks"."created_by" from "std_assessments" inner join "std_frameworks" on "std_frameworks"."id" = "std_assessments"."framework_id" where "std_assessments"."project_id" = $1 order by "std_assessments"."created_at" desc, "std_assessments"."id" desc`,
    [p],
  );
  const assessmentIds = assessments.map((a) => a.id);
  const counts = assessmentIds.length
    ? await q(
        `std_assessment_counts_${assessmentIds.length}`,
        `select "assessment_id", "result", count(*)::int, count(*) filter (where "due_date" < $1 and "status" <> 'done')::int from "std_req_assessments" where ("std_req_assessments"."project_id" = $2 and "std_req_assessments"."assessment_id" in (${list(3, assessmentIds.length)})) group by "std_req_assessments"."assessment_id", "std_req_assessments"."result"`,
        [today(), p, ...assessmentIds],
      )
    : [];
  return {
    assessment,
    nodes,
    reqs,
    comments,
    links,
    visible: { policies: visiblePolicies, measures: visibleMeasures },
    assessments,
    counts,
  };
});

// ------------------------------------------------------------------------------------------------ a monitoring page

const measureColumns = `"id", "project_id", "page_id", "dataset_id", "name", "type", "numerator", "denominator", "value_expr", "multiplier", "unit_label", "direction", "grain", "strata_keys", "definition", "chart_default", "rule_profile", "ihi_runs_test", "astronomical_point", "baseline_from", "baseline_to", "formula_version", "formula_hash", "position", "version", "deleted_at", "created_at", "created_by", "updated_at", "updated_by"`;

/** Targets, benchmarks, phases and annotations of some measures, in the portal's order for `order`. */
async function measureExtras(measureIds: number[], order: 'summary' | 'series') {
  const p = ids.projectId;
  const n = measureIds.length;
  const values = [p, ...measureIds];
  const statements = {
    targets: [
      `mon_targets_${n}`,
      `select "id", "project_id", "measure_id", "value", "effective_from", "kind", "created_at", "created_by" from "mon_targets" where ("mon_targets"."project_id" = $1 and "mon_targets"."measure_id" in (${list(2, n)})) order by "mon_targets"."effective_from" asc, "mon_targets"."id" asc`,
    ],
    benchmarks: [
      `mon_benchmarks_${n}`,
      `select "id", "project_id", "measure_id", "source", "statistic", "percentile", "value", "period_label", "as_of", "spec_match", "citation_url", "note", "created_at", "created_by" from "mon_benchmarks" where ("mon_benchmarks"."project_id" = $1 and "mon_benchmarks"."measure_id" in (${list(2, n)})) order by "mon_benchmarks"."as_of" desc, "mon_benchmarks"."id" asc`,
    ],
    phases: [
      `mon_phases_${n}`,
      `select "id", "project_id", "measure_id", "start_period", "label", "reason", "created_at", "created_by" from "mon_phases" where ("mon_phases"."project_id" = $1 and "mon_phases"."measure_id" in (${list(2, n)})) order by "mon_phases"."start_period" asc, "mon_phases"."id" asc`,
    ],
    annotations: [
      `mon_annotations_${n}`,
      `select "id", "project_id", "measure_id", "period_start", "kind", "text", "exclude_from_limits", "created_at", "created_by" from "mon_annotations" where ("mon_annotations"."project_id" = $1 and "mon_annotations"."measure_id" in (${list(2, n)})) order by "mon_annotations"."period_start" asc, "mon_annotations"."id" asc`,
    ],
  } as const;
  const keys =
    order === 'summary'
      ? (['benchmarks', 'targets', 'phases', 'annotations'] as const)
      : (['targets', 'benchmarks', 'phases', 'annotations'] as const);
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const key of keys) out[key] = await q(statements[key][0], statements[key][1], values);
  return out;
}

/** The measure's dataset and its cached series (the portal reuses a series computed before). */
async function cachedSeries(measure: Record<string, unknown>, chart: string, stratum: string) {
  const p = ids.projectId;
  const dataset =
    measure.dataset_id === null
      ? null
      : ((
          await q(
            'mon_dataset',
            `select "id", "version", "row_count", "columns" from "mon_datasets" where ("mon_datasets"."project_id" = $1 and "mon_datasets"."id" = $2 and "mon_datasets"."deleted_at" is null)`,
            [p, measure.dataset_id],
          )
        )[0] ?? null);
  const [series] = await q(
    'mon_series',
    `select "input_hash", "result", "computed_at", "compute_ms" from "mon_series" where ("mon_series"."project_id" = $1 and "mon_series"."measure_id" = $2 and "mon_series"."stratum" = $3 and "mon_series"."chart" = $4)`,
    [p, measure.id, stratum, chart],
  );
  return { dataset, series: series ?? null };
}

get('/monitoring/page', async () => {
  const p = ids.projectId;
  const levels = await q(
    'mon_levels',
    `select "id", "project_id", "depth", "name", "icon", "may_hold_measures", "created_at", "created_by", "updated_at", "updated_by" from "mon_page_levels" where "mon_page_levels"."project_id" = $1 order by "mon_page_levels"."depth" asc`,
    [p],
  );
  const pages = await q(
    'mon_pages_full',
    `select "mon_pages"."id", "mon_pages"."project_id", "mon_pages"."parent_id", "mon_pages"."position", "mon_pages"."depth", "mon_pages"."number", "mon_pages"."title", "mon_pages"."status", "mon_pages"."owner_id", "mon_pages"."introduction", "mon_pages"."benchmarks", "mon_pages"."parameters_and_metrics", "mon_pages"."restricted", "mon_pages"."version", "mon_pages"."deleted_at", "mon_pages"."deleted_by", "mon_pages"."created_at", "mon_pages"."created_by", "mon_pages"."updated_at", "mon_pages"."updated_by", ${PERSON('users')} from "mon_pages" left join "users" on "users"."id" = "mon_pages"."owner_id" where ("mon_pages"."project_id" = $1 and "mon_pages"."deleted_at" is null)`,
    [p],
  );
  const page = pages.find((row) => row.id === ids.pageId);
  if (!page) throw new Error('no such page');
  // The page with its ancestors (the breadcrumb) and its children.
  const byId = new Map(pages.map((row) => [row.id, row]));
  const ancestors = [];
  for (let at = byId.get(page.parent_id); at; at = byId.get(at.parent_id)) ancestors.unshift(at);
  const children = pages.filter((row) => row.parent_id === page.id);
  return { page, ancestors, children, levels, updated_by: await personRef(page.updated_by) };
});

get('/monitoring/insights', async () => ({
  insights: await q(
    'mon_insights',
    `select "mon_insights"."id", "mon_insights"."project_id", "mon_insights"."page_id", "mon_insights"."title", "mon_insights"."body", "mon_insights"."status", "mon_insights"."author_id", "mon_insights"."published_at", "mon_insights"."version", "mon_insights"."deleted_at", "mon_insights"."created_at", "mon_insights"."updated_at", "mon_insights"."updated_by", ${PERSON('insight_author')} from "mon_insights" left join "users" "insight_author" on "insight_author"."id" = "mon_insights"."author_id" where ("mon_insights"."project_id" = $1 and "mon_insights"."page_id" = $2 and "mon_insights"."deleted_at" is null) order by case when "mon_insights"."status" = 'draft' then 0 else 1 end, coalesce("mon_insights"."published_at", "mon_insights"."updated_at") desc, "mon_insights"."id" desc`,
    [ids.projectId, ids.pageId],
  ),
}));

get('/monitoring/measure-summary', async () => {
  const p = ids.projectId;
  const measures = await q(
    'mon_page_measures',
    `select ${measureColumns} from "mon_measures" where ("mon_measures"."project_id" = $1 and "mon_measures"."page_id" = $2 and "mon_measures"."deleted_at" is null) order by "mon_measures"."position" asc, "mon_measures"."id" asc`,
    [p, ids.pageId],
  );
  const extras = measures.length
    ? await measureExtras(
        measures.map((m) => m.id as number),
        'summary',
      )
    : {};
  const series = [];
  for (const measure of measures) series.push(await cachedSeries(measure, measure.chart_default as string, ''));
  const datasetIds = [...new Set(measures.map((m) => m.dataset_id).filter((id) => id !== null))];
  const datasets = datasetIds.length
    ? await q(
        `mon_dataset_columns_${datasetIds.length}`,
        `select "id", "columns" from "mon_datasets" where ("mon_datasets"."project_id" = $1 and "mon_datasets"."id" in (${list(2, datasetIds.length)}))`,
        [p, ...datasetIds],
      )
    : [];
  return { measures, extras, series, datasets };
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
  const [measure] = await q(
    'mon_measure',
    `select ${measureColumns} from "mon_measures" where ("mon_measures"."project_id" = $1 and "mon_measures"."id" = $2 and "mon_measures"."deleted_at" is null)`,
    [ids.projectId, chart.measureId],
  );
  if (!measure) throw new Error('no such measure');
  const extras = await measureExtras([chart.measureId], 'series');
  return { measure, extras, ...(await cachedSeries(measure, chart.chart, chart.stratum)) };
});

// ------------------------------------------------------------------------------------------------ my reviews

get('/my-reviews', async () => {
  const p = ids.projectId;
  const assignments = await q(
    'cr_my_assignments',
    `select "cr_assignments"."id", "cr_assignments"."project_id", "cr_assignments"."case_id", "cr_assignments"."program_id", "cr_assignments"."tool_version_id", "cr_assignments"."reviewer_id", "cr_assignments"."role", "cr_assignments"."blind", "cr_assignments"."due_at", "cr_assignments"."status", "cr_assignments"."version", "cr_assignments"."started_at", "cr_assignments"."submitted_at", "cr_assignments"."return_reason", "cr_assignments"."returned_at", "cr_assignments"."returned_by", "cr_assignments"."created_at", "cr_assignments"."updated_at", "cr_cases"."case_code", "cr_cases"."unit", "cr_cases"."period_start", "cr_programs"."name" from "cr_assignments" inner join "cr_cases" on ("cr_cases"."project_id" = "cr_assignments"."project_id" and "cr_cases"."id" = "cr_assignments"."case_id") inner join "cr_programs" on ("cr_programs"."project_id" = "cr_assignments"."project_id" and "cr_programs"."id" = "cr_assignments"."program_id") where ("cr_assignments"."project_id" = $1 and "cr_assignments"."reviewer_id" = $2)`,
    [p, ids.reviewerId],
  );
  const questions = [];
  for (const version of new Set(assignments.map((a) => a.tool_version_id))) {
    questions.push(
      ...(await q(
        'cr_questions',
        `select "id", "project_id", "tool_version_id", "key", "section", "position", "text", "help", "answer_type", "weight", "critical", "na_allowed", "na_reason_required", "show_if" from "cr_questions" where ("cr_questions"."project_id" = $1 and "cr_questions"."tool_version_id" = $2) order by "cr_questions"."position" asc, "cr_questions"."id" asc`,
        [p, version],
      )),
    );
  }
  const assignmentIds = assignments.map((a) => a.id);
  const answers = assignmentIds.length
    ? await q(
        `cr_answers_${assignmentIds.length}`,
        `select "assignment_id", "question_id", "value" from "cr_answers" where ("cr_answers"."project_id" = $1 and "cr_answers"."assignment_id" in (${list(2, assignmentIds.length)}))`,
        [p, ...assignmentIds],
      )
    : [];
  return { assignments, questions, answers };
});

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
