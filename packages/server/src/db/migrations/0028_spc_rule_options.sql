ALTER TABLE "mon_measures" ADD COLUMN "ihi_runs_test" text DEFAULT 'swed_eisenhart' NOT NULL;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD COLUMN "astronomical_point" text DEFAULT 'i_chart' NOT NULL;--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_ihi_runs_test_check" CHECK ("mon_measures"."ihi_runs_test" in ('swed_eisenhart', 'anhoej_crossings'));--> statement-breakpoint
ALTER TABLE "mon_measures" ADD CONSTRAINT "mon_measures_astronomical_point_check" CHECK ("mon_measures"."astronomical_point" in ('i_chart', 'off'));