CREATE TABLE `alert_ack` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`monitor_id` integer NOT NULL,
	`incident_id` integer,
	`actor` text NOT NULL,
	`via` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `status_event`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspace`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`incident_id`) REFERENCES `incident`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `alert_ack_monitor` ON `alert_ack` (`monitor_id`);--> statement-breakpoint
CREATE TABLE `alert_timer` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`monitor_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`kind` text NOT NULL,
	`key` integer NOT NULL,
	`round` integer DEFAULT 0 NOT NULL,
	`channel_ids` text NOT NULL,
	`due_at` integer NOT NULL,
	`fired_at` integer,
	`outcome` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspace`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `status_event`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_timer_round` ON `alert_timer` (`event_id`,`kind`,`key`,`round`);--> statement-breakpoint
CREATE INDEX `alert_timer_due` ON `alert_timer` (`fired_at`,`due_at`);--> statement-breakpoint
CREATE INDEX `alert_timer_monitor` ON `alert_timer` (`monitor_id`,`fired_at`);--> statement-breakpoint
CREATE TABLE `escalation_policy` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`steps` text NOT NULL,
	`repeat_last_every_minutes` real,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspace`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `escalation_policy_name` ON `escalation_policy` (`workspace_id`,`name`);--> statement-breakpoint
CREATE TABLE `monitor_dependency` (
	`monitor_id` integer NOT NULL,
	`parent_id` integer NOT NULL,
	PRIMARY KEY(`monitor_id`, `parent_id`),
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `monitor_dependency_parent` ON `monitor_dependency` (`parent_id`);--> statement-breakpoint
ALTER TABLE `monitor` ADD `remind_every_ms` integer;--> statement-breakpoint
ALTER TABLE `monitor` ADD `escalation_policy_id` integer;--> statement-breakpoint
ALTER TABLE `monitor_channel` ADD `remind_every_ms` integer;--> statement-breakpoint
ALTER TABLE `notification_delivery` ADD `round` integer DEFAULT 0 NOT NULL;