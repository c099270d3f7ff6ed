ALTER TABLE `workspace` ADD `ping_key` text;--> statement-breakpoint
ALTER TABLE `workspace` ADD `ping_key_hash` text;--> statement-breakpoint
ALTER TABLE `workspace` ADD `ping_auto_create` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_ping_key_hash_unique` ON `workspace` (`ping_key_hash`);