DROP INDEX `status_page_custom_domain_unique`;--> statement-breakpoint
ALTER TABLE `status_page` ADD `custom_domain_token` text;--> statement-breakpoint
ALTER TABLE `status_page` ADD `custom_domain_verified_at` integer;--> statement-breakpoint
ALTER TABLE `status_page` ADD `custom_domain_checked_at` integer;--> statement-breakpoint
ALTER TABLE `status_page` ADD `custom_domain_error` text;--> statement-breakpoint
CREATE INDEX `status_page_custom_domain` ON `status_page` (`custom_domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `status_page_verified_domain` ON `status_page` (`custom_domain`) WHERE "status_page"."custom_domain_verified_at" is not null;--> statement-breakpoint
-- Domains claimed before verification existed were never proven: they stop being served until their
-- owner proves them with this token (the dashboard shows the step).
UPDATE `status_page` SET `custom_domain_token` = lower(hex(randomblob(16))) WHERE `custom_domain` IS NOT NULL;
