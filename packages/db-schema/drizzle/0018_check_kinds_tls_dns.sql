ALTER TABLE `monitor` ADD `settings` text;--> statement-breakpoint
ALTER TABLE `monitor_location_status` ADD `cert_not_after` integer;