CREATE TABLE "std_assessments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_assessments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"framework_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"scope_note" text DEFAULT '' NOT NULL,
	"survey_window_start" date,
	"survey_window_end" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "std_assessments_kind_check" CHECK ("std_assessments"."kind" in ('self', 'mock', 'survey'))
);
--> statement-breakpoint
CREATE TABLE "std_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"req_assessment_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "std_frameworks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_frameworks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"publisher" text NOT NULL,
	"edition" text NOT NULL,
	"text_policy" text NOT NULL,
	"licence_note" text DEFAULT '' NOT NULL,
	"public_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "std_frameworks_code_edition_unique" UNIQUE NULLS NOT DISTINCT("project_id","code","edition"),
	CONSTRAINT "std_frameworks_text_policy_check" CHECK ("std_frameworks"."text_policy" in ('public_domain', 'identifiers_only', 'tenant_text')),
	CONSTRAINT "std_frameworks_public_domain_built_in" CHECK ("std_frameworks"."text_policy" <> 'public_domain' or "std_frameworks"."project_id" is null)
);
--> statement-breakpoint
CREATE TABLE "std_leads" (
	"project_id" integer NOT NULL,
	"assessment_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "std_leads_assessment_id_node_id_pk" PRIMARY KEY("assessment_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "std_mappings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_mappings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer,
	"source_node_id" integer NOT NULL,
	"target_node_id" integer NOT NULL,
	"relationship" text NOT NULL,
	"rationale" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "std_mappings_relationship_check" CHECK ("std_mappings"."relationship" in ('equal', 'subset', 'superset', 'intersect', 'not_related'))
);
--> statement-breakpoint
CREATE TABLE "std_members" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "std_members_project_id_user_id_pk" PRIMARY KEY("project_id","user_id"),
	CONSTRAINT "std_members_role_check" CHECK ("std_members"."role" in ('standards_admin', 'chapter_lead', 'owner', 'contributor', 'mock_assessor', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "std_node_local" (
	"project_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"wording" text DEFAULT '' NOT NULL,
	"guidance" text DEFAULT '' NOT NULL,
	"public_url" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "std_node_local_project_id_node_id_pk" PRIMARY KEY("project_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "std_nodes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"framework_id" integer NOT NULL,
	"parent_id" integer,
	"ref_id" text NOT NULL,
	"urn" text NOT NULL,
	"node_type" text NOT NULL,
	"title" text NOT NULL,
	"official_text" text,
	"assessable" boolean NOT NULL,
	"depth" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "std_nodes_type_check" CHECK ("std_nodes"."node_type" in ('chapter', 'section', 'condition', 'standard', 'element', 'ep', 'tag', 'goal'))
);
--> statement-breakpoint
CREATE TABLE "std_req_assessments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "std_req_assessments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"assessment_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"result" text DEFAULT 'not_assessed' NOT NULL,
	"status" text DEFAULT 'to_do' NOT NULL,
	"na_justification" text DEFAULT '' NOT NULL,
	"owner_id" integer,
	"due_date" date,
	"observation" text DEFAULT '' NOT NULL,
	"last_reviewed_at" timestamp with time zone,
	"last_reviewed_by" integer,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "std_req_assessments_result_check" CHECK ("std_req_assessments"."result" in ('not_assessed', 'compliant', 'partially_compliant', 'non_compliant', 'not_applicable')),
	CONSTRAINT "std_req_assessments_status_check" CHECK ("std_req_assessments"."status" in ('to_do', 'in_progress', 'in_review', 'done')),
	CONSTRAINT "std_req_assessments_na_check" CHECK ("std_req_assessments"."result" <> 'not_applicable' or length("std_req_assessments"."na_justification") > 0)
);
--> statement-breakpoint
CREATE TABLE "trace_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trace_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "trace_links_target_type_check" CHECK ("trace_links"."target_type" in ('policy', 'measure', 'cr_program'))
);
--> statement-breakpoint
ALTER TABLE "std_assessments" ADD CONSTRAINT "std_assessments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_assessments" ADD CONSTRAINT "std_assessments_framework_id_std_frameworks_id_fk" FOREIGN KEY ("framework_id") REFERENCES "public"."std_frameworks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_assessments" ADD CONSTRAINT "std_assessments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_comments" ADD CONSTRAINT "std_comments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_comments" ADD CONSTRAINT "std_comments_req_assessment_id_std_req_assessments_id_fk" FOREIGN KEY ("req_assessment_id") REFERENCES "public"."std_req_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_comments" ADD CONSTRAINT "std_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_frameworks" ADD CONSTRAINT "std_frameworks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_frameworks" ADD CONSTRAINT "std_frameworks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_leads" ADD CONSTRAINT "std_leads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_leads" ADD CONSTRAINT "std_leads_assessment_id_std_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."std_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_leads" ADD CONSTRAINT "std_leads_node_id_std_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."std_nodes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_leads" ADD CONSTRAINT "std_leads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_leads" ADD CONSTRAINT "std_leads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_mappings" ADD CONSTRAINT "std_mappings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_mappings" ADD CONSTRAINT "std_mappings_source_node_id_std_nodes_id_fk" FOREIGN KEY ("source_node_id") REFERENCES "public"."std_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_mappings" ADD CONSTRAINT "std_mappings_target_node_id_std_nodes_id_fk" FOREIGN KEY ("target_node_id") REFERENCES "public"."std_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_members" ADD CONSTRAINT "std_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_members" ADD CONSTRAINT "std_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_members" ADD CONSTRAINT "std_members_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_node_local" ADD CONSTRAINT "std_node_local_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_node_local" ADD CONSTRAINT "std_node_local_node_id_std_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."std_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_node_local" ADD CONSTRAINT "std_node_local_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_nodes" ADD CONSTRAINT "std_nodes_framework_id_std_frameworks_id_fk" FOREIGN KEY ("framework_id") REFERENCES "public"."std_frameworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_nodes" ADD CONSTRAINT "std_nodes_parent_id_std_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."std_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD CONSTRAINT "std_req_assessments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD CONSTRAINT "std_req_assessments_assessment_id_std_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."std_assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD CONSTRAINT "std_req_assessments_node_id_std_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."std_nodes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD CONSTRAINT "std_req_assessments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD CONSTRAINT "std_req_assessments_last_reviewed_by_users_id_fk" FOREIGN KEY ("last_reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "std_req_assessments" ADD CONSTRAINT "std_req_assessments_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_links" ADD CONSTRAINT "trace_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_links" ADD CONSTRAINT "trace_links_node_id_std_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."std_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_links" ADD CONSTRAINT "trace_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "std_assessments_project_idx" ON "std_assessments" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "std_comments_req_idx" ON "std_comments" USING btree ("project_id","req_assessment_id");--> statement-breakpoint
CREATE INDEX "std_leads_user_idx" ON "std_leads" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "std_mappings_pair_unique" ON "std_mappings" USING btree ("source_node_id","target_node_id");--> statement-breakpoint
CREATE INDEX "std_mappings_target_idx" ON "std_mappings" USING btree ("target_node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "std_nodes_framework_ref_unique" ON "std_nodes" USING btree ("framework_id","ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "std_nodes_urn_unique" ON "std_nodes" USING btree ("urn");--> statement-breakpoint
CREATE INDEX "std_nodes_parent_idx" ON "std_nodes" USING btree ("framework_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "std_req_assessments_node_unique" ON "std_req_assessments" USING btree ("assessment_id","node_id");--> statement-breakpoint
CREATE INDEX "std_req_assessments_project_idx" ON "std_req_assessments" USING btree ("project_id","assessment_id");--> statement-breakpoint
CREATE INDEX "std_req_assessments_owner_idx" ON "std_req_assessments" USING btree ("project_id","owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trace_links_unique" ON "trace_links" USING btree ("project_id","node_id","target_type","target_id");--> statement-breakpoint
CREATE INDEX "trace_links_target_idx" ON "trace_links" USING btree ("project_id","target_type","target_id");