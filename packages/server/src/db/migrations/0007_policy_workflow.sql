CREATE TABLE "policy_attestations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_attestations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"attested_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "policy_department_roles" (
	"project_id" integer NOT NULL,
	"department_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "policy_department_roles_department_id_role_user_id_pk" PRIMARY KEY("department_id","role","user_id"),
	CONSTRAINT "policy_department_roles_role_check" CHECK ("policy_department_roles"."role" in ('reviewer', 'signer', 'reader'))
);
--> statement-breakpoint
CREATE TABLE "policy_signatures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_signatures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"round" integer NOT NULL,
	"signer_id" integer NOT NULL,
	"signer_name" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text,
	"content_sha256" text NOT NULL,
	"method" text NOT NULL,
	"meaning" text NOT NULL,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	CONSTRAINT "policy_signatures_method_check" CHECK ("policy_signatures"."method" in ('password', 'totp'))
);
--> statement-breakpoint
CREATE TABLE "policy_workflow_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_workflow_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_workflow_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_workflow_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"round" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"comment" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_workflow_requests_kind_check" CHECK ("policy_workflow_requests"."kind" in ('review', 'signature')),
	CONSTRAINT "policy_workflow_requests_status_check" CHECK ("policy_workflow_requests"."status" in ('pending', 'approved', 'changes_requested', 'signed', 'declined', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "policy_workflow_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"default_review_interval_months" integer DEFAULT 12 NOT NULL,
	"signatures_required" text DEFAULT 'all' NOT NULL,
	"allow_self_signing" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "policy_documents" ADD COLUMN "review_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD COLUMN "round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_attestations" ADD CONSTRAINT "policy_attestations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_attestations" ADD CONSTRAINT "policy_attestations_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_attestations" ADD CONSTRAINT "policy_attestations_version_id_policy_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."policy_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_attestations" ADD CONSTRAINT "policy_attestations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_department_roles" ADD CONSTRAINT "policy_department_roles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_department_roles" ADD CONSTRAINT "policy_department_roles_department_id_policy_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."policy_departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_department_roles" ADD CONSTRAINT "policy_department_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_department_roles" ADD CONSTRAINT "policy_department_roles_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_signatures" ADD CONSTRAINT "policy_signatures_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_signatures" ADD CONSTRAINT "policy_signatures_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_signatures" ADD CONSTRAINT "policy_signatures_version_id_policy_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."policy_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_signatures" ADD CONSTRAINT "policy_signatures_signer_id_users_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_events" ADD CONSTRAINT "policy_workflow_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_events" ADD CONSTRAINT "policy_workflow_events_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_events" ADD CONSTRAINT "policy_workflow_events_version_id_policy_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."policy_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_events" ADD CONSTRAINT "policy_workflow_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_requests" ADD CONSTRAINT "policy_workflow_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_requests" ADD CONSTRAINT "policy_workflow_requests_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_requests" ADD CONSTRAINT "policy_workflow_requests_version_id_policy_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."policy_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_requests" ADD CONSTRAINT "policy_workflow_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_settings" ADD CONSTRAINT "policy_workflow_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_workflow_settings" ADD CONSTRAINT "policy_workflow_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_attestations_once" ON "policy_attestations" USING btree ("version_id","user_id");--> statement-breakpoint
CREATE INDEX "policy_attestations_project_idx" ON "policy_attestations" USING btree ("project_id","document_id");--> statement-breakpoint
CREATE INDEX "policy_department_roles_project_idx" ON "policy_department_roles" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_signatures_once" ON "policy_signatures" USING btree ("version_id","round","signer_id");--> statement-breakpoint
CREATE INDEX "policy_signatures_document_idx" ON "policy_signatures" USING btree ("project_id","document_id");--> statement-breakpoint
CREATE INDEX "policy_workflow_events_document_idx" ON "policy_workflow_events" USING btree ("project_id","document_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_workflow_requests_unique" ON "policy_workflow_requests" USING btree ("version_id","round","kind","user_id");--> statement-breakpoint
CREATE INDEX "policy_workflow_requests_open_idx" ON "policy_workflow_requests" USING btree ("project_id","user_id","kind") WHERE "policy_workflow_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "policy_workflow_requests_document_idx" ON "policy_workflow_requests" USING btree ("document_id");