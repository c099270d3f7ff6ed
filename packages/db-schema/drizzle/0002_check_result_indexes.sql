DROP INDEX `check_result_monitor_time`;--> statement-breakpoint
DROP INDEX `check_result_slot`;--> statement-breakpoint
DROP INDEX `check_result_pending`;--> statement-breakpoint
CREATE UNIQUE INDEX `check_result_slot` ON `check_result` (`monitor_id`,`cron_timestamp`,`location_id`);--> statement-breakpoint
CREATE INDEX `check_result_pending` ON `check_result` (`monitor_id`) WHERE "check_result"."evaluated_at" is null;