CREATE TABLE `heartbeat` (
	`monitor_id` integer PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`token_hash` text NOT NULL,
	`last_ping_id` integer,
	`last_ping_at` integer,
	`last_failed` integer DEFAULT false NOT NULL,
	`started_at` integer,
	`deadline_at` integer,
	`evaluated_ping_id` integer DEFAULT 0 NOT NULL,
	`monitor_version` integer DEFAULT 0 NOT NULL,
	`rearmed_at` integer,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `heartbeat_token_hash_unique` ON `heartbeat` (`token_hash`);--> statement-breakpoint
CREATE INDEX `heartbeat_deadline` ON `heartbeat` (`deadline_at`);--> statement-breakpoint
CREATE TABLE `heartbeat_ping` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`monitor_id` integer NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`exit_code` integer,
	`source_ip` text,
	`user_agent` text,
	`body` text,
	`duration_ms` integer,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `heartbeat_ping_monitor` ON `heartbeat_ping` (`monitor_id`,`id`);--> statement-breakpoint
CREATE TABLE `ping_receiver` (
	`id` integer PRIMARY KEY NOT NULL,
	`up_since` integer NOT NULL,
	`alive_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `monitor` ADD `hb_period_ms` integer;--> statement-breakpoint
ALTER TABLE `monitor` ADD `hb_grace_ms` integer;--> statement-breakpoint
ALTER TABLE `monitor` ADD `hb_cron` text;--> statement-breakpoint
ALTER TABLE `monitor` ADD `hb_timezone` text;