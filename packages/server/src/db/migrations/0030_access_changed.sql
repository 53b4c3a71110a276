-- What the session statement reads (plugins/session.ts) may be kept between requests by each instance (decision
-- record 029): every statement that changes one of its tables tells every instance to forget what it keeps, on
-- PostgreSQL's channel portal_access_changed, delivered at commit. One notice per transaction however many rows.
CREATE FUNCTION "portal_access_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_access_changed', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "project_memberships_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "project_memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "project_member_roles_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "project_member_roles"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "permission_rules_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "permission_rules"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "std_members_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "std_members"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "mon_role_members_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "mon_role_members"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "projects_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
-- A session's own row: deleted (sign-out, ended by an admin, expired) or changed, except the touch of last_seen_at
-- once a minute, which the instance that keeps the row writes itself.
CREATE TRIGGER "sessions_access_deleted" AFTER DELETE OR TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_access_changed"();--> statement-breakpoint
CREATE TRIGGER "sessions_access_changed" AFTER UPDATE ON "sessions" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at'))
  EXECUTE FUNCTION "portal_access_changed"();
