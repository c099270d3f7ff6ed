ALTER TABLE `monitor` ADD `failure_threshold` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `monitor` ADD `success_threshold` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `monitor_location_status` ADD `streak` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_channel` ADD `timeout_ms` integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_delivery` ADD `finished_at` integer;--> statement-breakpoint
ALTER TABLE `private_location` ADD `skipped_checks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `private_location` ADD `overloaded_since` integer;