CREATE TABLE "std_evidence" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_evidence_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"req_assessment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"file_id" integer,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'in_review' NOT NULL,
	"expires_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "std_evidence_kind_check" CHECK ("std_evidence"."kind" in ('file', 'link', 'note')),
	CONSTRAINT "std_evidence_status_check" CHECK ("std_evidence"."status" in ('draft', 'in_review', 'approved', 'rejected')),
	CONSTRAINT "std_evidence_shape_check" CHECK (("std_evidence"."kind" = 'file' and "std_evidence"."file_id" is not null) or ("std_evidence"."kind" = 'link' and "std_evidence"."url" is not null) or "std_evidence"."kind" = 'note')
);
--> statement-breakpoint
ALTER TABLE "std_assessments" ADD COLUMN "upgraded_from_id" integer;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD COLUMN "carried_from" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "std_evidence" ADD CONSTRAINT "std_evidence_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_evidence" ADD CONSTRAINT "std_evidence_req_assessment_id_std_req_assessments_id_fk" FOREIGN KEY ("req_assessment_id") REFERENCES "public"."std_req_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_evidence" ADD CONSTRAINT "std_evidence_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_evidence" ADD CONSTRAINT "std_evidence_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_evidence" ADD CONSTRAINT "std_evidence_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "std_evidence_req_idx" ON "std_evidence" USING btree ("project_id","req_assessment_id");--> statement-breakpoint
ALTER TABLE "std_assessments" ADD CONSTRAINT "std_assessments_upgraded_from_id_std_assessments_id_fk" FOREIGN KEY ("upgraded_from_id") REFERENCES "public"."std_assessments"("id") ON DELETE set null ON UPDATE no action;