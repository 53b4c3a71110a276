CREATE TABLE "mon_insight_revisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_insight_revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"insight_id" integer NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"edited_by" integer,
	"edited_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mon_insights" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_insights_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"page_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"author_id" integer,
	"published_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "mon_insights_status_check" CHECK ("mon_insights"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "mon_page_levels" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_page_levels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"depth" integer NOT NULL,
	"name" text NOT NULL,
	"icon" text DEFAULT 'folder' NOT NULL,
	"may_hold_measures" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "mon_page_levels_depth_check" CHECK ("mon_page_levels"."depth" between 1 and 8)
);
--> statement-breakpoint
CREATE TABLE "mon_page_permissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_page_permissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"page_id" integer NOT NULL,
	"role_id" integer,
	"user_id" integer,
	"level" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_page_permissions_level_check" CHECK ("mon_page_permissions"."level" in ('view', 'edit', 'manage')),
	CONSTRAINT "mon_page_permissions_subject_check" CHECK (("mon_page_permissions"."role_id" is null) <> ("mon_page_permissions"."user_id" is null))
);
--> statement-breakpoint
CREATE TABLE "mon_pages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_pages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"parent_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"depth" integer DEFAULT 1 NOT NULL,
	"number" text,
	"title" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"owner_id" integer,
	"introduction" text DEFAULT '' NOT NULL,
	"benchmarks" text DEFAULT '' NOT NULL,
	"parameters_and_metrics" text DEFAULT '' NOT NULL,
	"restricted" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "mon_pages_status_check" CHECK ("mon_pages"."status" in ('draft', 'published', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "mon_request_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_request_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"request_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mon_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"requester_id" integer,
	"title" text NOT NULL,
	"purpose" text NOT NULL,
	"page_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"period_from" date,
	"period_to" date,
	"format" text NOT NULL,
	"patient_level" boolean DEFAULT false NOT NULL,
	"justification" text,
	"needed_by" date,
	"status" text DEFAULT 'submitted' NOT NULL,
	"assignee_id" integer,
	"response" text,
	"delivered_file_id" integer,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "mon_requests_status_check" CHECK ("mon_requests"."status" in ('submitted', 'triaged', 'in_progress', 'delivered', 'closed', 'rejected', 'cancelled')),
	CONSTRAINT "mon_requests_justification_check" CHECK (not "mon_requests"."patient_level" or coalesce("mon_requests"."justification", '') <> '')
);
--> statement-breakpoint
CREATE TABLE "mon_role_members" (
	"project_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_role_members_role_id_user_id_pk" PRIMARY KEY("role_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "mon_roles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_roles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "mon_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"numbering_mode" text DEFAULT 'auto' NOT NULL,
	"introduction" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "mon_settings_numbering_mode_check" CHECK ("mon_settings"."numbering_mode" in ('auto', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "mon_users" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_users_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "mon_insight_revisions" ADD CONSTRAINT "mon_insight_revisions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_insight_revisions" ADD CONSTRAINT "mon_insight_revisions_insight_id_mon_insights_id_fk" FOREIGN KEY ("insight_id") REFERENCES "public"."mon_insights"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_insight_revisions" ADD CONSTRAINT "mon_insight_revisions_edited_by_users_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_insights" ADD CONSTRAINT "mon_insights_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_insights" ADD CONSTRAINT "mon_insights_page_id_mon_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."mon_pages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_insights" ADD CONSTRAINT "mon_insights_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_insights" ADD CONSTRAINT "mon_insights_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_levels" ADD CONSTRAINT "mon_page_levels_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_levels" ADD CONSTRAINT "mon_page_levels_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_levels" ADD CONSTRAINT "mon_page_levels_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_permissions" ADD CONSTRAINT "mon_page_permissions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_permissions" ADD CONSTRAINT "mon_page_permissions_page_id_mon_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."mon_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_permissions" ADD CONSTRAINT "mon_page_permissions_role_id_mon_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."mon_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_permissions" ADD CONSTRAINT "mon_page_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_page_permissions" ADD CONSTRAINT "mon_page_permissions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_pages" ADD CONSTRAINT "mon_pages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_pages" ADD CONSTRAINT "mon_pages_parent_id_mon_pages_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."mon_pages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_pages" ADD CONSTRAINT "mon_pages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_pages" ADD CONSTRAINT "mon_pages_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_pages" ADD CONSTRAINT "mon_pages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_pages" ADD CONSTRAINT "mon_pages_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_request_comments" ADD CONSTRAINT "mon_request_comments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_request_comments" ADD CONSTRAINT "mon_request_comments_request_id_mon_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."mon_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_request_comments" ADD CONSTRAINT "mon_request_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_requests" ADD CONSTRAINT "mon_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_requests" ADD CONSTRAINT "mon_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_requests" ADD CONSTRAINT "mon_requests_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_requests" ADD CONSTRAINT "mon_requests_delivered_file_id_stored_files_id_fk" FOREIGN KEY ("delivered_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_requests" ADD CONSTRAINT "mon_requests_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_role_members" ADD CONSTRAINT "mon_role_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_role_members" ADD CONSTRAINT "mon_role_members_role_id_mon_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."mon_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_role_members" ADD CONSTRAINT "mon_role_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_role_members" ADD CONSTRAINT "mon_role_members_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_roles" ADD CONSTRAINT "mon_roles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_roles" ADD CONSTRAINT "mon_roles_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_roles" ADD CONSTRAINT "mon_roles_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_settings" ADD CONSTRAINT "mon_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_settings" ADD CONSTRAINT "mon_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_users" ADD CONSTRAINT "mon_users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_users" ADD CONSTRAINT "mon_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_users" ADD CONSTRAINT "mon_users_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mon_insight_revisions_unique" ON "mon_insight_revisions" USING btree ("insight_id","version");--> statement-breakpoint
CREATE INDEX "mon_insights_page_idx" ON "mon_insights" USING btree ("project_id","page_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mon_page_levels_depth_unique" ON "mon_page_levels" USING btree ("project_id","depth");--> statement-breakpoint
CREATE INDEX "mon_page_permissions_page_idx" ON "mon_page_permissions" USING btree ("project_id","page_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mon_page_permissions_role_unique" ON "mon_page_permissions" USING btree ("page_id","role_id") WHERE "mon_page_permissions"."role_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "mon_page_permissions_user_unique" ON "mon_page_permissions" USING btree ("page_id","user_id") WHERE "mon_page_permissions"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "mon_pages_tree_idx" ON "mon_pages" USING btree ("project_id","parent_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "mon_pages_number_unique" ON "mon_pages" USING btree ("project_id","number") WHERE "mon_pages"."deleted_at" is null and "mon_pages"."number" is not null;--> statement-breakpoint
CREATE INDEX "mon_request_comments_request_idx" ON "mon_request_comments" USING btree ("project_id","request_id");--> statement-breakpoint
CREATE INDEX "mon_requests_project_idx" ON "mon_requests" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "mon_role_members_user_idx" ON "mon_role_members" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mon_roles_name_unique" ON "mon_roles" USING btree ("project_id",lower("name"));