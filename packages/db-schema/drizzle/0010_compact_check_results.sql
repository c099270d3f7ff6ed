CREATE TABLE `check_result_row` (
	`id` integer PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`monitor_id` integer NOT NULL,
	`cron_timestamp` integer NOT NULL,
	`location_id` integer NOT NULL,
	`status` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`start_offset_ms` integer DEFAULT 0 NOT NULL,
	`status_code` integer,
	`error_message` text,
	`attempts` integer DEFAULT 1 NOT NULL,
	`timings` text,
	`assertions` text
);
--> statement-breakpoint
CREATE TABLE `monitor_evaluation` (
	`monitor_id` integer PRIMARY KEY NOT NULL,
	`through` integer NOT NULL,
	`cron` integer,
	`evaluated_at` integer NOT NULL
);
--> statement-breakpoint
-- Hand-edited: the stored results are copied under their rowids (the analytics export follows them) and
-- each monitor's evaluation watermark is set below its oldest result still pending; the slot index is built
-- once the old table (and its index of the same name) is gone.
INSERT INTO `check_result_row` (`id`, `workspace_id`, `monitor_id`, `cron_timestamp`, `location_id`, `status`, `latency_ms`, `start_offset_ms`, `status_code`, `error_message`, `attempts`, `timings`, `assertions`)
	SELECT `rowid`, `workspace_id`, `monitor_id`, `cron_timestamp`, `location_id`, CASE `status` WHEN 'success' THEN 0 WHEN 'degraded' THEN 1 ELSE 2 END, `latency_ms`, `started_at` - `cron_timestamp`, `status_code`, `error_message`, `attempts`,
		CASE WHEN `status` = 'success' THEN NULL ELSE `timings` END, CASE WHEN `status` = 'success' THEN NULL ELSE `assertions` END
	FROM `check_result` ORDER BY `rowid`;--> statement-breakpoint
INSERT INTO `monitor_evaluation` (`monitor_id`, `through`, `cron`, `evaluated_at`)
	SELECT r.`monitor_id`, coalesce(min(CASE WHEN r.`evaluated_at` IS NULL THEN r.`rowid` END) - 1, max(r.`rowid`)), m.`status_cron_timestamp`, coalesce(max(r.`evaluated_at`), 0)
	FROM `check_result` r LEFT JOIN `monitor` m ON m.`id` = r.`monitor_id` GROUP BY r.`monitor_id`;--> statement-breakpoint
DROP TABLE `check_result`;--> statement-breakpoint
CREATE UNIQUE INDEX `check_result_slot` ON `check_result_row` (`monitor_id`,`cron_timestamp`,`location_id`);--> statement-breakpoint
ALTER TABLE `monitor_location_status` ADD `result_rowid` integer;--> statement-breakpoint
CREATE VIEW `check_result` AS select r.id, r.workspace_id, r.monitor_id, r.location_id, l.region, r.cron_timestamp, r.cron_timestamp + r.start_offset_ms as started_at, case r.status when 0 then 'success' when 1 then 'degraded' else 'error' end as status, r.latency_ms, r.status_code, r.error_message, r.attempts, r.timings, r.assertions, case when r.id <= e.through then e.evaluated_at end as evaluated_at from check_result_row r left join private_location l on l.id = r.location_id left join monitor_evaluation e on e.monitor_id = r.monitor_id;