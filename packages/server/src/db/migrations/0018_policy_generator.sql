CREATE TABLE "pg_facility_profiles" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"short_name" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"bed_count" integer,
	"service_lines" text[] DEFAULT '{}'::text[] NOT NULL,
	"accreditors" text[] DEFAULT '{}'::text[] NOT NULL,
	"owner_titles" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default_review_interval_months" integer DEFAULT 36 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "pg_generations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pg_generations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"kind" text DEFAULT 'generate' NOT NULL,
	"template_id" integer NOT NULL,
	"template_version_id" integer NOT NULL,
	"answers" jsonb NOT NULL,
	"profile" jsonb NOT NULL,
	"inputs_hash" text NOT NULL,
	"unresolved" text[] DEFAULT '{}'::text[] NOT NULL,
	"overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"document_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "pg_generations_kind_check" CHECK ("pg_generations"."kind" in ('generate', 'regenerate'))
);
--> statement-breakpoint
CREATE TABLE "pg_llm_calls" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pg_llm_calls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"template_version_id" integer,
	"section_key" text NOT NULL,
	"action" text NOT NULL,
	"model" text NOT NULL,
	"prompt_hash" text NOT NULL,
	"prompt_tokens" integer,
	"completion_tokens" integer,
	"duration_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"accepted" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "pg_template_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pg_template_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer,
	"template_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"body" jsonb NOT NULL,
	"body_hash" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pg_template_versions_status_check" CHECK ("pg_template_versions"."status" in ('draft', 'published', 'retired'))
);
--> statement-breakpoint
CREATE TABLE "pg_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pg_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer,
	"code" text NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"derived_from_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pg_templates_code_unique" UNIQUE NULLS NOT DISTINCT("project_id","code")
);
--> statement-breakpoint
ALTER TABLE "pg_facility_profiles" ADD CONSTRAINT "pg_facility_profiles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_facility_profiles" ADD CONSTRAINT "pg_facility_profiles_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_generations" ADD CONSTRAINT "pg_generations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_generations" ADD CONSTRAINT "pg_generations_template_id_pg_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."pg_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_generations" ADD CONSTRAINT "pg_generations_template_version_id_pg_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."pg_template_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_generations" ADD CONSTRAINT "pg_generations_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_generations" ADD CONSTRAINT "pg_generations_version_id_policy_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."policy_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_generations" ADD CONSTRAINT "pg_generations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_llm_calls" ADD CONSTRAINT "pg_llm_calls_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_llm_calls" ADD CONSTRAINT "pg_llm_calls_template_version_id_pg_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."pg_template_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_llm_calls" ADD CONSTRAINT "pg_llm_calls_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_template_versions" ADD CONSTRAINT "pg_template_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_template_versions" ADD CONSTRAINT "pg_template_versions_template_id_pg_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."pg_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_template_versions" ADD CONSTRAINT "pg_template_versions_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_template_versions" ADD CONSTRAINT "pg_template_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_templates" ADD CONSTRAINT "pg_templates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_templates" ADD CONSTRAINT "pg_templates_derived_from_id_pg_templates_id_fk" FOREIGN KEY ("derived_from_id") REFERENCES "public"."pg_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pg_templates" ADD CONSTRAINT "pg_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pg_generations_document_idx" ON "pg_generations" USING btree ("project_id","document_id","created_at");--> statement-breakpoint
CREATE INDEX "pg_llm_calls_project_idx" ON "pg_llm_calls" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pg_template_versions_unique" ON "pg_template_versions" USING btree ("template_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "pg_template_versions_one_draft" ON "pg_template_versions" USING btree ("template_id") WHERE "pg_template_versions"."status" = 'draft';