CREATE TABLE "std_tracers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_tracers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"assessment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"traced_on" date NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"lead_id" integer,
	"case_code" text DEFAULT '' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "std_tracers_kind_check" CHECK ("std_tracers"."kind" in ('individual', 'system', 'program'))
);
--> statement-breakpoint
ALTER TABLE "std_findings" ADD COLUMN "tracer_id" integer;--> statement-breakpoint
ALTER TABLE "std_tracers" ADD CONSTRAINT "std_tracers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_tracers" ADD CONSTRAINT "std_tracers_assessment_id_std_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."std_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_tracers" ADD CONSTRAINT "std_tracers_lead_id_users_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_tracers" ADD CONSTRAINT "std_tracers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_tracers" ADD CONSTRAINT "std_tracers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "std_tracers_assessment_idx" ON "std_tracers" USING btree ("project_id","assessment_id");--> statement-breakpoint
ALTER TABLE "std_findings" ADD CONSTRAINT "std_findings_tracer_id_std_tracers_id_fk" FOREIGN KEY ("tracer_id") REFERENCES "public"."std_tracers"("id") ON DELETE set null ON UPDATE no action;