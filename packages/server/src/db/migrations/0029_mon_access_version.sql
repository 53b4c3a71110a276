ALTER TABLE "projects" ADD COLUMN "mon_access_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every statement that changes a project's monitoring pages or their grants moves the project's version on, in the
-- same transaction: an instance uses the page access it keeps only while the version it reads with the session
-- matches (decision record 028). Statement triggers with transition tables: a renumbering of 2,000 pages is one bump.
CREATE FUNCTION "portal_bump_mon_access_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "mon_access_version" = "mon_access_version" + 1
   WHERE "id" IN (SELECT DISTINCT "project_id" FROM "changed");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "mon_pages_access_insert" AFTER INSERT ON "mon_pages" REFERENCING NEW TABLE AS "changed"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_bump_mon_access_version"();--> statement-breakpoint
CREATE TRIGGER "mon_pages_access_update" AFTER UPDATE ON "mon_pages" REFERENCING NEW TABLE AS "changed"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_bump_mon_access_version"();--> statement-breakpoint
CREATE TRIGGER "mon_pages_access_delete" AFTER DELETE ON "mon_pages" REFERENCING OLD TABLE AS "changed"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_bump_mon_access_version"();--> statement-breakpoint
CREATE TRIGGER "mon_page_permissions_access_insert" AFTER INSERT ON "mon_page_permissions"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "portal_bump_mon_access_version"();--> statement-breakpoint
CREATE TRIGGER "mon_page_permissions_access_update" AFTER UPDATE ON "mon_page_permissions"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "portal_bump_mon_access_version"();--> statement-breakpoint
CREATE TRIGGER "mon_page_permissions_access_delete" AFTER DELETE ON "mon_page_permissions"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "portal_bump_mon_access_version"();
