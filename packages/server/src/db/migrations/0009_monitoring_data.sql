CREATE TABLE "mon_annotations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_annotations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"kind" text DEFAULT 'event' NOT NULL,
	"text" text NOT NULL,
	"exclude_from_limits" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_annotations_kind_check" CHECK ("mon_annotations"."kind" in ('intervention', 'pdsa', 'event', 'data_issue'))
);
--> statement-breakpoint
CREATE TABLE "mon_benchmarks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_benchmarks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"source" text NOT NULL,
	"statistic" text NOT NULL,
	"percentile" integer,
	"value" double precision NOT NULL,
	"period_label" text DEFAULT '' NOT NULL,
	"as_of" date NOT NULL,
	"spec_match" boolean DEFAULT true NOT NULL,
	"citation_url" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_benchmarks_statistic_check" CHECK ("mon_benchmarks"."statistic" in ('percentile', 'mean', 'median', 'sir'))
);
--> statement-breakpoint
CREATE TABLE "mon_charts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_charts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"page_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"title" text NOT NULL,
	"chart_type" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "mon_datasets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_datasets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"time_column" text,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"patient_level" boolean DEFAULT false NOT NULL,
	"retention_months" integer,
	"version" integer DEFAULT 0 NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "mon_formula_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_formula_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"version" integer NOT NULL,
	"dataset_id" integer,
	"numerator" text DEFAULT '' NOT NULL,
	"denominator" text DEFAULT '' NOT NULL,
	"value_expr" text DEFAULT '' NOT NULL,
	"hash" text NOT NULL,
	"columns" text[] DEFAULT '{}'::text[] NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"phase_start" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "mon_import_chunks" (
	"project_id" integer NOT NULL,
	"import_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "mon_import_chunks_import_id_seq_pk" PRIMARY KEY("import_id","seq")
);
--> statement-breakpoint
CREATE TABLE "mon_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"dataset_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"detected" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"settings" jsonb,
	"mode" text DEFAULT 'append' NOT NULL,
	"error_policy" text DEFAULT 'abort' NOT NULL,
	"range_from" date,
	"range_to" date,
	"key_columns" text[] DEFAULT '{}'::text[] NOT NULL,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_ok" integer DEFAULT 0 NOT NULL,
	"rows_err" integer DEFAULT 0 NOT NULL,
	"rows_replaced" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"committed_at" timestamp with time zone,
	"committed_by" integer,
	"rolled_back_at" timestamp with time zone,
	"rolled_back_by" integer,
	CONSTRAINT "mon_imports_status_check" CHECK ("mon_imports"."status" in ('uploaded', 'committing', 'committed', 'failed', 'rolled_back')),
	CONSTRAINT "mon_imports_mode_check" CHECK ("mon_imports"."mode" in ('append', 'replace_range', 'upsert')),
	CONSTRAINT "mon_imports_error_policy_check" CHECK ("mon_imports"."error_policy" in ('abort', 'skip'))
);
--> statement-breakpoint
CREATE TABLE "mon_measures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_measures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"page_id" integer NOT NULL,
	"dataset_id" integer,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"numerator" text DEFAULT '' NOT NULL,
	"denominator" text DEFAULT '' NOT NULL,
	"value_expr" text DEFAULT '' NOT NULL,
	"multiplier" double precision DEFAULT 1 NOT NULL,
	"unit_label" text DEFAULT '' NOT NULL,
	"direction" text DEFAULT 'neutral' NOT NULL,
	"grain" text DEFAULT 'month' NOT NULL,
	"strata_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"definition" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"chart_default" text DEFAULT 'run' NOT NULL,
	"rule_profile" text DEFAULT 'anhoej' NOT NULL,
	"baseline_from" date,
	"baseline_to" date,
	"formula_version" integer DEFAULT 0 NOT NULL,
	"formula_hash" text,
	"position" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "mon_measures_type_check" CHECK ("mon_measures"."type" in ('proportion', 'rate', 'ratio', 'continuous', 'count', 'time_between')),
	CONSTRAINT "mon_measures_direction_check" CHECK ("mon_measures"."direction" in ('up', 'down', 'neutral')),
	CONSTRAINT "mon_measures_grain_check" CHECK ("mon_measures"."grain" in ('week', 'month', 'quarter', 'year'))
);
--> statement-breakpoint
CREATE TABLE "mon_phases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_phases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"start_period" date NOT NULL,
	"label" text NOT NULL,
	"reason" text DEFAULT 'other' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_phases_reason_check" CHECK ("mon_phases"."reason" in ('definition_change', 'sustained_shift', 'intervention', 'other'))
);
--> statement-breakpoint
CREATE TABLE "mon_rows" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_rows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"dataset_id" integer NOT NULL,
	"import_id" integer NOT NULL,
	"row_no" integer NOT NULL,
	"row_date" date NOT NULL,
	"data" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"replaced_by" integer
);
--> statement-breakpoint
CREATE TABLE "mon_series" (
	"project_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"stratum" text DEFAULT '' NOT NULL,
	"chart" text NOT NULL,
	"input_hash" text NOT NULL,
	"result" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"compute_ms" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mon_series_measure_id_stratum_chart_pk" PRIMARY KEY("measure_id","stratum","chart")
);
--> statement-breakpoint
CREATE TABLE "mon_targets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mon_targets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"value" double precision NOT NULL,
	"effective_from" date NOT NULL,
	"kind" text DEFAULT 'target' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "mon_targets_kind_check" CHECK ("mon_targets"."kind" in ('target', 'threshold', 'stretch'))
);
--> statement-breakpoint
ALTER TABLE "mon_annotations" ADD CONSTRAINT "mon_annotations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_annotations" ADD CONSTRAINT "mon_annotations_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_annotations" ADD CONSTRAINT "mon_annotations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_benchmarks" ADD CONSTRAINT "mon_benchmarks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_benchmarks" ADD CONSTRAINT "mon_benchmarks_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_benchmarks" ADD CONSTRAINT "mon_benchmarks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_charts" ADD CONSTRAINT "mon_charts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_charts" ADD CONSTRAINT "mon_charts_page_id_mon_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."mon_pages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_charts" ADD CONSTRAINT "mon_charts_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_charts" ADD CONSTRAINT "mon_charts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_charts" ADD CONSTRAINT "mon_charts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_datasets" ADD CONSTRAINT "mon_datasets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_datasets" ADD CONSTRAINT "mon_datasets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_datasets" ADD CONSTRAINT "mon_datasets_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_formula_versions" ADD CONSTRAINT "mon_formula_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_formula_versions" ADD CONSTRAINT "mon_formula_versions_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_formula_versions" ADD CONSTRAINT "mon_formula_versions_dataset_id_mon_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."mon_datasets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_formula_versions" ADD CONSTRAINT "mon_formula_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_import_chunks" ADD CONSTRAINT "mon_import_chunks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_import_chunks" ADD CONSTRAINT "mon_import_chunks_import_id_mon_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."mon_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_imports" ADD CONSTRAINT "mon_imports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_imports" ADD CONSTRAINT "mon_imports_dataset_id_mon_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."mon_datasets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_imports" ADD CONSTRAINT "mon_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_imports" ADD CONSTRAINT "mon_imports_committed_by_users_id_fk" FOREIGN KEY ("committed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_imports" ADD CONSTRAINT "mon_imports_rolled_back_by_users_id_fk" FOREIGN KEY ("rolled_back_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_page_id_mon_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."mon_pages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_dataset_id_mon_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."mon_datasets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_phases" ADD CONSTRAINT "mon_phases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_phases" ADD CONSTRAINT "mon_phases_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_phases" ADD CONSTRAINT "mon_phases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_rows" ADD CONSTRAINT "mon_rows_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_rows" ADD CONSTRAINT "mon_rows_dataset_id_mon_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."mon_datasets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_rows" ADD CONSTRAINT "mon_rows_import_id_mon_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."mon_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_rows" ADD CONSTRAINT "mon_rows_replaced_by_mon_imports_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."mon_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_series" ADD CONSTRAINT "mon_series_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_series" ADD CONSTRAINT "mon_series_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_targets" ADD CONSTRAINT "mon_targets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_targets" ADD CONSTRAINT "mon_targets_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mon_targets" ADD CONSTRAINT "mon_targets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mon_annotations_measure_idx" ON "mon_annotations" USING btree ("measure_id");--> statement-breakpoint
CREATE INDEX "mon_benchmarks_measure_idx" ON "mon_benchmarks" USING btree ("measure_id");--> statement-breakpoint
CREATE INDEX "mon_charts_page_idx" ON "mon_charts" USING btree ("project_id","page_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "mon_datasets_name_unique" ON "mon_datasets" USING btree ("project_id",lower("name")) WHERE "mon_datasets"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "mon_formula_versions_unique" ON "mon_formula_versions" USING btree ("measure_id","version");--> statement-breakpoint
CREATE INDEX "mon_imports_dataset_idx" ON "mon_imports" USING btree ("project_id","dataset_id");--> statement-breakpoint
CREATE INDEX "mon_measures_page_idx" ON "mon_measures" USING btree ("project_id","page_id");--> statement-breakpoint
CREATE INDEX "mon_measures_dataset_idx" ON "mon_measures" USING btree ("dataset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mon_phases_start_unique" ON "mon_phases" USING btree ("measure_id","start_period");--> statement-breakpoint
CREATE INDEX "mon_rows_dataset_date_idx" ON "mon_rows" USING btree ("dataset_id","row_date","id") WHERE "mon_rows"."active";--> statement-breakpoint
CREATE INDEX "mon_rows_import_idx" ON "mon_rows" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "mon_rows_replaced_idx" ON "mon_rows" USING btree ("replaced_by") WHERE "mon_rows"."replaced_by" is not null;--> statement-breakpoint
CREATE INDEX "mon_targets_measure_idx" ON "mon_targets" USING btree ("measure_id");