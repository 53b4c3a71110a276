CREATE TABLE "std_findings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_findings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"assessment_id" integer NOT NULL,
	"req_assessment_id" integer NOT NULL,
	"source" text NOT NULL,
	"text" text NOT NULL,
	"likelihood" text NOT NULL,
	"scope" text NOT NULL,
	"immediate_threat" boolean DEFAULT false NOT NULL,
	"cited_on" date NOT NULL,
	"due_date" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"root_cause" text DEFAULT '' NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"leadership_involvement" text DEFAULT '' NOT NULL,
	"preventive_analysis" text DEFAULT '' NOT NULL,
	"measure_id" integer,
	"success_periods" integer DEFAULT 3 NOT NULL,
	"closed_note" text DEFAULT '' NOT NULL,
	"closed_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "std_findings_source_check" CHECK ("std_findings"."source" in ('self', 'mock', 'tracer', 'survey')),
	CONSTRAINT "std_findings_likelihood_check" CHECK ("std_findings"."likelihood" in ('low', 'moderate', 'high')),
	CONSTRAINT "std_findings_scope_check" CHECK ("std_findings"."scope" in ('limited', 'pattern', 'widespread')),
	CONSTRAINT "std_findings_status_check" CHECK ("std_findings"."status" in ('open', 'action_plan', 'closed')),
	CONSTRAINT "std_findings_periods_check" CHECK ("std_findings"."success_periods" between 1 and 24)
);
--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_assessment_id_std_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."std_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_req_assessment_id_std_req_assessments_id_fk" FOREIGN KEY ("req_assessment_id") REFERENCES "public"."std_req_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_measure_id_mon_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."mon_measures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "std_findings_assessment_idx" ON "std_findings" USING btree ("project_id","assessment_id","status");--> statement-breakpoint
CREATE INDEX "std_findings_req_idx" ON "std_findings" USING btree ("req_assessment_id");