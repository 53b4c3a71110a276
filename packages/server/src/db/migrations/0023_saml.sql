CREATE TABLE "saml_message_ids" (
	"provider_id" integer NOT NULL,
	"kind" text NOT NULL,
	"message_id" text NOT NULL,
	"redirect" text,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_message_ids_provider_id_kind_message_id_pk" PRIMARY KEY("provider_id","kind","message_id"),
	CONSTRAINT "saml_message_ids_kind_check" CHECK ("saml_message_ids"."kind" in ('request', 'assertion'))
);
--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_metadata_url" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_entity_id" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_sso_url" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_slo_url" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_certificates" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "saml_message_ids" ADD CONSTRAINT "saml_message_ids_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_message_ids_expires_idx" ON "saml_message_ids" USING btree ("expires_at");