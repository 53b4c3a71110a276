CREATE TABLE "policy_users" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "policy_users_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "policy_users" ADD CONSTRAINT "policy_users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_users" ADD CONSTRAINT "policy_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_users" ADD CONSTRAINT "policy_users_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Everyone who already has a policy management main role takes part in policy management.
INSERT INTO "policy_users" ("project_id", "user_id")
SELECT "project_id", "user_id" FROM "project_member_roles" WHERE "app" = 'policy_management'
ON CONFLICT DO NOTHING;
