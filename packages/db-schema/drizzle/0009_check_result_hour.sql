CREATE TABLE `check_result_hour` (
	`monitor_id` integer NOT NULL,
	`hour` integer NOT NULL,
	`location_id` integer NOT NULL,
	`workspace_id` integer NOT NULL,
	`total` integer NOT NULL,
	`success` integer NOT NULL,
	`degraded` integer NOT NULL,
	`error` integer NOT NULL,
	`latencies` text NOT NULL,
	PRIMARY KEY(`monitor_id`, `hour`, `location_id`)
);
--> statement-breakpoint
CREATE INDEX `check_result_hour_workspace_time` ON `check_result_hour` (`workspace_id`,`hour`);--> statement-breakpoint
CREATE TABLE `check_result_rollup` (
	`monitor_id` integer PRIMARY KEY NOT NULL,
	`through` integer NOT NULL
);
