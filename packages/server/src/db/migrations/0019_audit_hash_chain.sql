ALTER TABLE "audit_events" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_seq_unique" ON "audit_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_events_unsealed_idx" ON "audit_events" USING btree ("id") WHERE "audit_events"."seq" is null;