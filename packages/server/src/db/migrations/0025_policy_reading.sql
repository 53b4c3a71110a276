-- Typo-tolerant title search (policy_documents_title_trgm_idx) needs pg_trgm, part of every PostgreSQL contrib build.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "policy_file_texts" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"method" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"pages" integer,
	"text" text DEFAULT '' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "policy_file_texts_state_check" CHECK ("policy_file_texts"."state" in ('queued', 'reading', 'done', 'failed')),
	CONSTRAINT "policy_file_texts_method_check" CHECK ("policy_file_texts"."method" is null or "policy_file_texts"."method" in ('pdf_text', 'ocr')),
	CONSTRAINT "policy_file_texts_progress_check" CHECK ("policy_file_texts"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "policy_guest_access" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"ip_ranges" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "policy_guest_reads" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_guest_reads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"kind" text NOT NULL,
	"document_id" integer,
	"version_id" integer,
	"query" text,
	"ip" text NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_guest_reads_kind_check" CHECK ("policy_guest_reads"."kind" in ('read', 'search', 'link'))
);
--> statement-breakpoint
CREATE TABLE "policy_references" (
	"project_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"target_number" text NOT NULL,
	CONSTRAINT "policy_references_document_id_target_number_pk" PRIMARY KEY("document_id","target_number")
);
--> statement-breakpoint
CREATE TABLE "policy_search_synonyms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policy_search_synonyms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"terms" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "policy_search_synonyms_terms_check" CHECK (cardinality("policy_search_synonyms"."terms") between 2 and 20)
);
--> statement-breakpoint
ALTER TABLE "policy_documents" ADD COLUMN "replaced_by_id" integer;--> statement-breakpoint
ALTER TABLE "policy_file_texts" ADD CONSTRAINT "policy_file_texts_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_file_texts" ADD CONSTRAINT "policy_file_texts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_guest_access" ADD CONSTRAINT "policy_guest_access_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_guest_access" ADD CONSTRAINT "policy_guest_access_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_guest_reads" ADD CONSTRAINT "policy_guest_reads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_guest_reads" ADD CONSTRAINT "policy_guest_reads_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_references" ADD CONSTRAINT "policy_references_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_references" ADD CONSTRAINT "policy_references_document_id_policy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."policy_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_search_synonyms" ADD CONSTRAINT "policy_search_synonyms_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_search_synonyms" ADD CONSTRAINT "policy_search_synonyms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_search_synonyms" ADD CONSTRAINT "policy_search_synonyms_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "policy_file_texts_state_idx" ON "policy_file_texts" USING btree ("state");--> statement-breakpoint
CREATE INDEX "policy_guest_reads_project_idx" ON "policy_guest_reads" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "policy_references_target_idx" ON "policy_references" USING btree ("project_id","target_number");--> statement-breakpoint
CREATE INDEX "policy_search_synonyms_project_idx" ON "policy_search_synonyms" USING btree ("project_id");--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_replaced_by_id_policy_documents_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."policy_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "policy_documents_title_trgm_idx" ON "policy_documents" USING gin (lower("title") gin_trgm_ops);