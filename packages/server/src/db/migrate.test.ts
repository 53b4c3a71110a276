import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.js';
import { migrationsApplied, runMigrations } from './migrate.js';

describe('runMigrations', () => {
  const db = useTestDatabase();
  const count = async () =>
    Number((await db.handle.pool.query('select count(*) from drizzle.__drizzle_migrations')).rows[0].count);

  it('is a no-op on a migrated database, also when two instances run it at once', async () => {
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await Promise.all([runMigrations(db.handle.pool), runMigrations(db.handle.pool)]);
    await runMigrations(db.handle.pool);
    expect(await count()).toBe(before);
    expect(await migrationsApplied(db.handle.pool)).toBe(true);
  });

  it('creates the tables of every migration', async () => {
    const { rows } = await db.handle.pool.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' order by 1",
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'audit_events',
      'captcha_solutions',
      'contact_messages',
      'cr_access_log',
      'cr_action_plans',
      'cr_answers',
      'cr_assignments',
      'cr_case_results',
      'cr_cases',
      'cr_findings',
      'cr_irr_pairs',
      'cr_programs',
      'cr_questions',
      'cr_reviewer_units',
      'cr_samples',
      'cr_settings',
      'cr_tool_versions',
      'cr_tools',
      'directory_group_members',
      'directory_groups',
      'email_log',
      'identity_group_mappings',
      'identity_providers',
      'login_attempts',
      'mapped_memberships',
      'mon_annotations',
      'mon_benchmarks',
      'mon_charts',
      'mon_datasets',
      'mon_formula_versions',
      'mon_import_chunks',
      'mon_imports',
      'mon_insight_revisions',
      'mon_insights',
      'mon_measures',
      'mon_page_levels',
      'mon_page_permissions',
      'mon_pages',
      'mon_phases',
      'mon_request_comments',
      'mon_requests',
      'mon_role_members',
      'mon_roles',
      'mon_rows',
      'mon_series',
      'mon_settings',
      'mon_targets',
      'mon_users',
      'notifications',
      'password_reset_tokens',
      'permission_rules',
      'pg_facility_profiles',
      'pg_generations',
      'pg_llm_calls',
      'pg_template_versions',
      'pg_templates',
      'policy_attestations',
      'policy_department_roles',
      'policy_departments',
      'policy_documents',
      'policy_file_texts',
      'policy_guest_access',
      'policy_guest_reads',
      'policy_number_history',
      'policy_numbering',
      'policy_references',
      'policy_search_synonyms',
      'policy_signatures',
      'policy_upload_keys',
      'policy_users',
      'policy_versions',
      'policy_workflow_events',
      'policy_workflow_requests',
      'policy_workflow_settings',
      'project_member_roles',
      'project_memberships',
      'projects',
      'rate_limit_hits',
      'saml_message_ids',
      'sessions',
      'std_assessments',
      'std_comments',
      'std_evidence',
      'std_findings',
      'std_frameworks',
      'std_leads',
      'std_mappings',
      'std_members',
      'std_node_local',
      'std_nodes',
      'std_req_assessments',
      'std_tracers',
      'stored_files',
      'terms_acceptances',
      'terms_versions',
      'trace_links',
      'user_identities',
      'user_imports',
      'user_requests',
      'users',
    ]);
  });
});
