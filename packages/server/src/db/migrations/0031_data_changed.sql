-- Whole answers of the hottest reads may be kept between requests by each instance (decision record 032): every
-- statement that changes a table they may be read from tells every instance to forget them, on PostgreSQL's channel
-- portal_data_changed, delivered at commit, once per transaction however many rows. The tables of migration 0030
-- already notify on portal_access_changed, which the kept answers hear too. Left out, because no kept answer reads
-- them and reads or sign-ins write them: the logs (audit_events, email_log, cr_access_log, pg_llm_calls) and the
-- sign-in guards (rate_limit_hits, login_attempts, captcha_solutions, saml_message_ids, password_reset_tokens).
-- A table added later gets its trigger in its own migration (plugins/kept-answers.test.ts checks every table).
CREATE FUNCTION "portal_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_data_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT tablename FROM pg_tables
     WHERE schemaname = 'public'
       AND tablename NOT IN ('users', 'project_memberships', 'project_member_roles', 'permission_rules', 'std_members',
         'mon_role_members', 'projects', 'sessions', 'audit_events', 'email_log', 'cr_access_log', 'pg_llm_calls',
         'rate_limit_hits', 'login_attempts', 'captcha_solutions', 'saml_message_ids', 'password_reset_tokens')
     ORDER BY tablename
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION "portal_data_changed"()', t || '_data_changed', t);
  END LOOP;
END
$$;
