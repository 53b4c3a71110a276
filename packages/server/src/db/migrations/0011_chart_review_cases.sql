CREATE TABLE "cr_access_log" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_access_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"case_id" integer,
	"sample_id" integer,
	"reason" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cr_action_plans" (
	"finding_id" integer PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"root_cause" text DEFAULT '' NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"measure_id" integer,
	"success_periods" integer DEFAULT 3 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "cr_action_plans_periods_check" CHECK ("cr_action_plans"."success_periods" between 1 and 24)
);
--> statement-breakpoint
CREATE TABLE "cr_answers" (
	"project_id" integer NOT NULL,
	"assignment_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"value" text,
	"na_reason" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"evidence_location" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cr_answers_assignment_id_question_id_pk" PRIMARY KEY("assignment_id","question_id"),
	CONSTRAINT "cr_answers_value_check" CHECK ("cr_answers"."value" is null or "cr_answers"."value" in ('yes', 'no', 'na', 'partial'))
);
--> statement-breakpoint
CREATE TABLE "cr_assignments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_assignments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"tool_version_id" integer NOT NULL,
	"reviewer_id" integer NOT NULL,
	"role" text DEFAULT 'primary' NOT NULL,
	"blind" boolean DEFAULT false NOT NULL,
	"due_at" date NOT NULL,
	"status" text DEFAULT 'assigned' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"return_reason" text,
	"returned_at" timestamp with time zone,
	"returned_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cr_assignments_role_check" CHECK ("cr_assignments"."role" in ('primary', 'second')),
	CONSTRAINT "cr_assignments_status_check" CHECK ("cr_assignments"."status" in ('assigned', 'in_progress', 'submitted', 'returned'))
);
--> statement-breakpoint
CREATE TABLE "cr_case_results" (
	"case_id" integer PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"unit" text,
	"tool_version_id" integer NOT NULL,
	"score" double precision,
	"applicable" integer NOT NULL,
	"met" integer NOT NULL,
	"all_or_none" boolean,
	"answers" jsonb NOT NULL,
	"counts" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cr_cases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_cases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"sample_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"case_code" text NOT NULL,
	"unit" text,
	"discharge_month" date,
	"encounter_ref_enc" text,
	"ref_hash" text NOT NULL,
	"stratum" text,
	"sample_rank" integer,
	"status" text DEFAULT 'eligible' NOT NULL,
	"exclusion_reason" text,
	"excluded_at" timestamp with time zone,
	"excluded_by" integer,
	"replaced_by_case_id" integer,
	"ref_purged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cr_cases_status_check" CHECK ("cr_cases"."status" in ('eligible', 'selected', 'excluded'))
);
--> statement-breakpoint
CREATE TABLE "cr_findings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_findings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"unit" text,
	"question_key" text,
	"title" text NOT NULL,
	"rate" double precision,
	"n" integer DEFAULT 0 NOT NULL,
	"target" double precision NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" integer,
	"close_note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "cr_findings_status_check" CHECK ("cr_findings"."status" in ('open', 'action_plan', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "cr_irr_pairs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_irr_pairs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"primary_assignment_id" integer NOT NULL,
	"second_assignment_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"items_compared" integer,
	"items_agreed" integer,
	"final" jsonb,
	"adjudicated_at" timestamp with time zone,
	"adjudicated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cr_irr_pairs_status_check" CHECK ("cr_irr_pairs"."status" in ('pending', 'agreed', 'disagreed', 'adjudicated'))
);
--> statement-breakpoint
CREATE TABLE "cr_reviewer_units" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"unit" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "cr_reviewer_units_project_id_user_id_unit_pk" PRIMARY KEY("project_id","user_id","unit")
);
--> statement-breakpoint
CREATE TABLE "cr_samples" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cr_samples_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"row_count" integer NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"plan" jsonb,
	"seed" text,
	"algorithm" text,
	"size" integer,
	"by_stratum" jsonb,
	"tool_version_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" integer,
	"drawn_at" timestamp with time zone,
	"drawn_by" integer,
	"locked_at" timestamp with time zone,
	"locked_by" integer,
	CONSTRAINT "cr_samples_status_check" CHECK ("cr_samples"."status" in ('uploaded', 'drawn', 'locked'))
);
--> statement-breakpoint
ALTER TABLE "cr_access_log" ADD CONSTRAINT "cr_access_log_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_access_log" ADD CONSTRAINT "cr_access_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_access_log" ADD CONSTRAINT "cr_access_log_case_id_cr_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cr_cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_access_log" ADD CONSTRAINT "cr_access_log_sample_id_cr_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."cr_samples"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_action_plans" ADD CONSTRAINT "cr_action_plans_finding_id_cr_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."cr_findings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_action_plans" ADD CONSTRAINT "cr_action_plans_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_action_plans" ADD CONSTRAINT "cr_action_plans_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_action_plans" ADD CONSTRAINT "cr_action_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_action_plans" ADD CONSTRAINT "cr_action_plans_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_answers" ADD CONSTRAINT "cr_answers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_answers" ADD CONSTRAINT "cr_answers_assignment_id_cr_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."cr_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_answers" ADD CONSTRAINT "cr_answers_question_id_cr_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."cr_questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_assignments" ADD CONSTRAINT "cr_assignments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_assignments" ADD CONSTRAINT "cr_assignments_case_id_cr_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cr_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_assignments" ADD CONSTRAINT "cr_assignments_program_id_cr_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."cr_programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_assignments" ADD CONSTRAINT "cr_assignments_tool_version_id_cr_tool_versions_id_fk" FOREIGN KEY ("tool_version_id") REFERENCES "public"."cr_tool_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_assignments" ADD CONSTRAINT "cr_assignments_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_assignments" ADD CONSTRAINT "cr_assignments_returned_by_users_id_fk" FOREIGN KEY ("returned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_case_results" ADD CONSTRAINT "cr_case_results_case_id_cr_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cr_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_case_results" ADD CONSTRAINT "cr_case_results_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_case_results" ADD CONSTRAINT "cr_case_results_program_id_cr_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."cr_programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_case_results" ADD CONSTRAINT "cr_case_results_tool_version_id_cr_tool_versions_id_fk" FOREIGN KEY ("tool_version_id") REFERENCES "public"."cr_tool_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_cases" ADD CONSTRAINT "cr_cases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_cases" ADD CONSTRAINT "cr_cases_sample_id_cr_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."cr_samples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_cases" ADD CONSTRAINT "cr_cases_program_id_cr_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."cr_programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_cases" ADD CONSTRAINT "cr_cases_excluded_by_users_id_fk" FOREIGN KEY ("excluded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_findings" ADD CONSTRAINT "cr_findings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_findings" ADD CONSTRAINT "cr_findings_program_id_cr_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."cr_programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_findings" ADD CONSTRAINT "cr_findings_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_findings" ADD CONSTRAINT "cr_findings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_findings" ADD CONSTRAINT "cr_findings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_irr_pairs" ADD CONSTRAINT "cr_irr_pairs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_irr_pairs" ADD CONSTRAINT "cr_irr_pairs_case_id_cr_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cr_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_irr_pairs" ADD CONSTRAINT "cr_irr_pairs_primary_assignment_id_cr_assignments_id_fk" FOREIGN KEY ("primary_assignment_id") REFERENCES "public"."cr_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_irr_pairs" ADD CONSTRAINT "cr_irr_pairs_second_assignment_id_cr_assignments_id_fk" FOREIGN KEY ("second_assignment_id") REFERENCES "public"."cr_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_irr_pairs" ADD CONSTRAINT "cr_irr_pairs_adjudicated_by_users_id_fk" FOREIGN KEY ("adjudicated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_reviewer_units" ADD CONSTRAINT "cr_reviewer_units_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_reviewer_units" ADD CONSTRAINT "cr_reviewer_units_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_reviewer_units" ADD CONSTRAINT "cr_reviewer_units_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_samples" ADD CONSTRAINT "cr_samples_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_samples" ADD CONSTRAINT "cr_samples_program_id_cr_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."cr_programs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_samples" ADD CONSTRAINT "cr_samples_tool_version_id_cr_tool_versions_id_fk" FOREIGN KEY ("tool_version_id") REFERENCES "public"."cr_tool_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_samples" ADD CONSTRAINT "cr_samples_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_samples" ADD CONSTRAINT "cr_samples_drawn_by_users_id_fk" FOREIGN KEY ("drawn_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cr_samples" ADD CONSTRAINT "cr_samples_locked_by_users_id_fk" FOREIGN KEY ("locked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cr_access_log_project_idx" ON "cr_access_log" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_assignments_case_role_unique" ON "cr_assignments" USING btree ("case_id","role");--> statement-breakpoint
CREATE INDEX "cr_assignments_reviewer_idx" ON "cr_assignments" USING btree ("project_id","reviewer_id","status");--> statement-breakpoint
CREATE INDEX "cr_case_results_program_idx" ON "cr_case_results" USING btree ("program_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_cases_code_unique" ON "cr_cases" USING btree ("project_id","case_code");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_cases_ref_unique" ON "cr_cases" USING btree ("sample_id","ref_hash");--> statement-breakpoint
CREATE INDEX "cr_cases_sample_idx" ON "cr_cases" USING btree ("sample_id","stratum","sample_rank");--> statement-breakpoint
CREATE INDEX "cr_cases_program_period_idx" ON "cr_cases" USING btree ("program_id","period_start");--> statement-breakpoint
CREATE INDEX "cr_findings_program_idx" ON "cr_findings" USING btree ("project_id","program_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_irr_pairs_case_unique" ON "cr_irr_pairs" USING btree ("case_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cr_samples_period_unique" ON "cr_samples" USING btree ("program_id","period_start");--> statement-breakpoint
CREATE INDEX "cr_samples_project_idx" ON "cr_samples" USING btree ("project_id");