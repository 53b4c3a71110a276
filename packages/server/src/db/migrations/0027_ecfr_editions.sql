ALTER TABLE "std_frameworks" ADD COLUMN "as_of" date;--> statement-breakpoint
ALTER TABLE "std_nodes" ADD COLUMN "heading" text;--> statement-breakpoint
ALTER TABLE "std_nodes" ADD COLUMN "in_force_from" date;--> statement-breakpoint
ALTER TABLE "std_nodes" ADD COLUMN "source_note" text;--> statement-breakpoint
ALTER TABLE "std_nodes" ADD COLUMN "optional" boolean DEFAULT false NOT NULL;