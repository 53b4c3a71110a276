CREATE TABLE "policy_departments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_departments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"parent_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "policy_departments_code_check" CHECK ("policy_departments"."code" ~ '^[A-Z][A-Z0-9]{0,9}$')
);
--> statement-breakpoint
CREATE TABLE "policy_documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"number" text,
	"title" text NOT NULL,
	"department_id" integer,
	"owner_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"current_version_id" integer,
	"draft_version_id" integer,
	"review_interval_months" integer DEFAULT 12 NOT NULL,
	"next_review_on" date,
	"effective_on" date,
	"search_text" text DEFAULT '' NOT NULL,
	"title_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(number, '') || ' ' || title)) STORED,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(number, '') || ' ' || title), 'A') || setweight(to_tsvector('english', left(search_text, 500000)), 'B')) STORED,
	"archived_at" timestamp with time zone,
	"archived_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "policy_documents_status_check" CHECK ("policy_documents"."status" in ('draft', 'in_review', 'pending_signature', 'published', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "policy_number_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_number_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"from_number" text,
	"to_number" text,
	"reason" text NOT NULL,
	"changed_by" integer,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_numbering" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"levels" integer DEFAULT 3 NOT NULL,
	"department_prefixes" boolean DEFAULT false NOT NULL,
	"prefix_separator" text DEFAULT '-' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "policy_upload_keys" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"document_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_upload_keys_project_id_user_id_key_pk" PRIMARY KEY("project_id","user_id","key")
);
--> statement-breakpoint
CREATE TABLE "policy_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"version" integer NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"change_summary" text DEFAULT '' NOT NULL,
	"effective_on" date,
	"author_id" integer,
	"source_file_id" integer,
	"revision" integer DEFAULT 0 NOT NULL,
	"superseded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "policy_versions_state_check" CHECK ("policy_versions"."state" in ('draft', 'in_review', 'pending_signature', 'published', 'superseded'))
);
--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "file_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_departments" ADD CONSTRAINT "policy_departments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_departments" ADD CONSTRAINT "policy_departments_parent_id_policy_departments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."policy_departments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_departments" ADD CONSTRAINT "policy_departments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_departments" ADD CONSTRAINT "policy_departments_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_department_id_policy_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."policy_departments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_archived_by_users_id_fk" FOREIGN KEY ("archived_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_number_history" ADD CONSTRAINT "policy_number_history_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_number_history" ADD CONSTRAINT "policy_number_history_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_number_history" ADD CONSTRAINT "policy_number_history_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_numbering" ADD CONSTRAINT "policy_numbering_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_numbering" ADD CONSTRAINT "policy_numbering_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_upload_keys" ADD CONSTRAINT "policy_upload_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_upload_keys" ADD CONSTRAINT "policy_upload_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_upload_keys" ADD CONSTRAINT "policy_upload_keys_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_source_file_id_stored_files_id_fk" FOREIGN KEY ("source_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_departments_code_unique" ON "policy_departments" USING btree ("project_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_departments_name_unique" ON "policy_departments" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "policy_documents_number_unique" ON "policy_documents" USING btree ("project_id","number") WHERE "policy_documents"."number" is not null and "policy_documents"."status" <> 'archived';--> statement-breakpoint
CREATE INDEX "policy_documents_project_idx" ON "policy_documents" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "policy_documents_department_idx" ON "policy_documents" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "policy_documents_search_idx" ON "policy_documents" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "policy_documents_title_search_idx" ON "policy_documents" USING gin ("title_vector");--> statement-breakpoint
CREATE INDEX "policy_number_history_document_idx" ON "policy_number_history" USING btree ("document_id","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_versions_document_version_unique" ON "policy_versions" USING btree ("document_id","version");--> statement-breakpoint
CREATE INDEX "policy_versions_project_idx" ON "policy_versions" USING btree ("project_id","state");