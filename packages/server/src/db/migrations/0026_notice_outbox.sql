ALTER TABLE "email_log" DROP CONSTRAINT "email_log_status_check";--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "sealed_body" text;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "link_token_hash" text;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "user_import_id" integer;--> statement-breakpoint
ALTER TABLE "email_log" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "task_kind" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "task_ref" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_log" ADD CONSTRAINT "email_log_user_import_id_user_imports_id_fk" FOREIGN KEY ("user_import_id") REFERENCES "public"."user_imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_log_user_import_idx" ON "email_log" USING btree ("user_import_id");--> statement-breakpoint
CREATE INDEX "email_log_due_idx" ON "email_log" USING btree ("next_attempt_at") WHERE "email_log"."status" in ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "notifications_task_idx" ON "notifications" USING btree ("project_id","task_ref") WHERE "notifications"."task_kind" is not null and "notifications"."done_at" is null;--> statement-breakpoint
ALTER TABLE "user_imports" DROP COLUMN "sent";--> statement-breakpoint
ALTER TABLE "user_imports" DROP COLUMN "failed";--> statement-breakpoint
ALTER TABLE "user_imports" DROP COLUMN "finished_at";--> statement-breakpoint
ALTER TABLE "email_log" ADD CONSTRAINT "email_log_status_check" CHECK ("email_log"."status" in ('queued', 'sending', 'sent', 'failed', 'logged'));--> statement-breakpoint
-- No live secret at rest: set-password links already in the log become a marker; the token's hash is kept so the log can still tell whether the link was used.
UPDATE "email_log" SET
  "link_token_hash" = encode(sha256(convert_to(substring("body_text" from '/reset-password\?token=([0-9A-Fa-f]+)'), 'UTF8')), 'hex'),
  "body_text" = regexp_replace("body_text", '\S*/reset-password\?token=\S*', '[set-password link removed]', 'g')
WHERE "body_text" ~ '/reset-password\?token=';--> statement-breakpoint
-- Messages left 'queued' before the outbox were never going to be tried: say so rather than send them weeks late.
UPDATE "email_log" SET "status" = 'failed', "error" = 'Not sent: queued before deliveries were retried. Resend it if it is still needed.'
WHERE "status" = 'queued';