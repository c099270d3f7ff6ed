CREATE TABLE `maintenance_component` (
	`maintenance_id` integer NOT NULL,
	`component_id` integer NOT NULL,
	PRIMARY KEY(`maintenance_id`, `component_id`),
	FOREIGN KEY (`maintenance_id`) REFERENCES `maintenance`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`component_id`) REFERENCES `status_page_component`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `subscriber_delivery` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscriber_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ref_id` integer NOT NULL,
	`outcome` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`sent_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`subscriber_id`) REFERENCES `page_subscriber`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriber_delivery_once` ON `subscriber_delivery` (`subscriber_id`,`kind`,`ref_id`);--> statement-breakpoint
CREATE INDEX `subscriber_delivery_outcome` ON `subscriber_delivery` (`outcome`);--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `token_expires_at` integer;--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `unsubscribe_token` text;--> statement-breakpoint
CREATE UNIQUE INDEX `page_subscriber_unsubscribe_token_unique` ON `page_subscriber` (`unsubscribe_token`);--> statement-breakpoint
ALTER TABLE `status_page` ADD `logo_url` text;--> statement-breakpoint
ALTER TABLE `status_page` ADD `links` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `status_page` ADD `theme` text DEFAULT 'system' NOT NULL;--> statement-breakpoint
ALTER TABLE `status_page` ADD `allow_index` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `status_page_component` ADD `static_status` text DEFAULT 'operational' NOT NULL;--> statement-breakpoint
ALTER TABLE `status_report` ADD `incident_id` integer REFERENCES incident(id);--> statement-breakpoint
ALTER TABLE `status_report` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `status_report_component` ADD `impact` text DEFAULT 'major_outage' NOT NULL;