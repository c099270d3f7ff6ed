CREATE TABLE `metric_counter` (
	`monitor_id` integer NOT NULL,
	`location_id` integer NOT NULL,
	`workspace_id` integer NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`latency_sum_ms` integer DEFAULT 0 NOT NULL,
	`le_50` integer DEFAULT 0 NOT NULL,
	`le_100` integer DEFAULT 0 NOT NULL,
	`le_250` integer DEFAULT 0 NOT NULL,
	`le_500` integer DEFAULT 0 NOT NULL,
	`le_1000` integer DEFAULT 0 NOT NULL,
	`le_2500` integer DEFAULT 0 NOT NULL,
	`le_5000` integer DEFAULT 0 NOT NULL,
	`le_10000` integer DEFAULT 0 NOT NULL,
	`le_30000` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`monitor_id`, `location_id`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `metric_counter_workspace` ON `metric_counter` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `metric_watermark` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`through` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspace`(`id`) ON UPDATE no action ON DELETE cascade
);
