DROP INDEX `page_subscriber_email`;--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `language` text;--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `channel` text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `url` text;--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `url_hash` text;--> statement-breakpoint
ALTER TABLE `page_subscriber` ADD `secret` text;--> statement-breakpoint
CREATE UNIQUE INDEX `page_subscriber_url` ON `page_subscriber` (`page_id`,`url_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `page_subscriber_email` ON `page_subscriber` (`page_id`,`email`) WHERE "page_subscriber"."channel" = 'email';--> statement-breakpoint
ALTER TABLE `status_page` ADD `language` text DEFAULT 'en' NOT NULL;