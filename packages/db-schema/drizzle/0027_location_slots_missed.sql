ALTER TABLE `monitor_location_status` ADD `missed_through` integer;--> statement-breakpoint
ALTER TABLE `private_location` ADD `slots_missed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `private_location` ADD `silence_noticed_at` integer;--> statement-breakpoint
-- Locations already offline are taken as told: they get a notice when they come back, none for an old silence.
UPDATE `private_location` SET `silence_noticed_at` = `last_seen_at` WHERE `online` = 0 AND `last_seen_at` IS NOT NULL;
