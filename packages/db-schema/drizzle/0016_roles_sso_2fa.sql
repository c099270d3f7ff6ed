CREATE TABLE `user_totp` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`confirmed_at` integer,
	`recovery_codes` text DEFAULT '[]' NOT NULL,
	`last_step` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `api_key` ADD `scopes` text DEFAULT '["read","write","probe-admin"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `session` ADD `second_factor_at` integer;--> statement-breakpoint
ALTER TABLE `workspace` ADD `require_second_factor` integer DEFAULT 0 NOT NULL;