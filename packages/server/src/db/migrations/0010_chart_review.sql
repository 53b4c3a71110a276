CREATE TABLE "cr_programs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_programs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"tool_id" integer NOT NULL,
	"pinned_version_id" integer,
	"units" text[] DEFAULT '{}'::text[] NOT NULL,
	"grain" text DEFAULT 'month' NOT NULL,
	"sampling" jsonb NOT NULL,
	"due_days" integer DEFAULT 14 NOT NULL,
	"irr_rate" double precision DEFAULT 0.05 NOT NULL,
	"target" double precision DEFAULT 0.9 NOT NULL,
	"owner_id" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"mon_measure_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "cr_programs_grain_check" CHECK ("cr_programs"."grain" in ('month', 'quarter')),
	CONSTRAINT "cr_programs_status_check" CHECK ("cr_programs"."status" in ('active', 'paused', 'closed')),
	CONSTRAINT "cr_programs_rates_check" CHECK ("cr_programs"."irr_rate" between 0 and 1 and "cr_programs"."target" between 0 and 1),
	CONSTRAINT "cr_programs_due_days_check" CHECK ("cr_programs"."due_days" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "cr_questions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_questions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"tool_version_id" integer NOT NULL,
	"key" text NOT NULL,
	"section" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"help" text DEFAULT '' NOT NULL,
	"answer_type" text DEFAULT 'yes_no_na' NOT NULL,
	"weight" double precision DEFAULT 1 NOT NULL,
	"critical" boolean DEFAULT false NOT NULL,
	"na_allowed" boolean DEFAULT true NOT NULL,
	"na_reason_required" boolean DEFAULT false NOT NULL,
	"show_if" text DEFAULT '' NOT NULL,
	CONSTRAINT "cr_questions_weight_check" CHECK ("cr_questions"."weight" > 0),
	CONSTRAINT "cr_questions_answer_type_check" CHECK ("cr_questions"."answer_type" in ('yes_no_na', 'yes_partial_no_na'))
);
--> statement-breakpoint
CREATE TABLE "cr_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"store_encounter_ref" boolean DEFAULT false NOT NULL,
	"reveal_roles" text[] DEFAULT '{chart_review_admin}'::text[] NOT NULL,
	"retention_months" integer DEFAULT 24 NOT NULL,
	"default_irr_rate" double precision DEFAULT 0.05 NOT NULL,
	"irr_kappa_min" double precision DEFAULT 0.75 NOT NULL,
	"irr_agreement_min" double precision DEFAULT 0.95 NOT NULL,
	"new_reviewer_match_min" double precision DEFAULT 0.97 NOT NULL,
	"partial_enabled" boolean DEFAULT false NOT NULL,
	"privilege_label" text NOT NULL,
	"coi_own_unit" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "cr_settings_rates_check" CHECK ("cr_settings"."default_irr_rate" >= 0 and "cr_settings"."default_irr_rate" <= 1),
	CONSTRAINT "cr_settings_retention_check" CHECK ("cr_settings"."retention_months" between 1 and 120)
);
--> statement-breakpoint
CREATE TABLE "cr_tool_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_tool_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"tool_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" integer,
	"frozen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "cr_tool_versions_status_check" CHECK ("cr_tool_versions"."status" in ('draft', 'published', 'retired'))
);
--> statement-breakpoint
CREATE TABLE "cr_tools" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_tools_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"purpose" text DEFAULT '' NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_tool_id_cr_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."cr_tools"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_pinned_version_id_cr_tool_versions_id_fk" FOREIGN KEY ("pinned_version_id") REFERENCES "public"."cr_tool_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_mon_measure_id_mon_measures_id_fk" FOREIGN KEY ("mon_measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_programs" ADD CONSTRAINT "cr_programs_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_questions" ADD CONSTRAINT "cr_questions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_questions" ADD CONSTRAINT "cr_questions_tool_version_id_cr_tool_versions_id_fk" FOREIGN KEY ("tool_version_id") REFERENCES "public"."cr_tool_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_settings" ADD CONSTRAINT "cr_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_settings" ADD CONSTRAINT "cr_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tool_versions" ADD CONSTRAINT "cr_tool_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tool_versions" ADD CONSTRAINT "cr_tool_versions_tool_id_cr_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."cr_tools"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tool_versions" ADD CONSTRAINT "cr_tool_versions_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tool_versions" ADD CONSTRAINT "cr_tool_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tools" ADD CONSTRAINT "cr_tools_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tools" ADD CONSTRAINT "cr_tools_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_tools" ADD CONSTRAINT "cr_tools_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cr_programs_name_unique" ON "cr_programs" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "cr_questions_key_unique" ON "cr_questions" USING btree ("tool_version_id","key");--> statement-breakpoint
CREATE INDEX "cr_questions_version_idx" ON "cr_questions" USING btree ("tool_version_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_tool_versions_number_unique" ON "cr_tool_versions" USING btree ("tool_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_tool_versions_one_draft" ON "cr_tool_versions" USING btree ("tool_id") WHERE "cr_tool_versions"."status" = 'draft';--> statement-breakpoint
CREATE INDEX "cr_tool_versions_project_idx" ON "cr_tool_versions" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_tools_name_unique" ON "cr_tools" USING btree ("project_id",lower("name"));