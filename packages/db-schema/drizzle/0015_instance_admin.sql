CREATE TABLE `admin_token` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_token_hash_unique` ON `admin_token` (`hash`);--> statement-breakpoint
CREATE TABLE `instance_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`metadata` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `signup_invitation` (
	`email` text PRIMARY KEY NOT NULL,
	`preset` text NOT NULL,
	`invited_by` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
ALTER TABLE `instance` ADD `signup_default` text;--> statement-breakpoint
ALTER TABLE `user` ADD `disabled_at` integer;--> statement-breakpoint
-- An install that already has people keeps open sign-up (nobody is locked out by an upgrade); a new one starts closed.
UPDATE `instance` SET `signup_default` = 'open' WHERE EXISTS (SELECT 1 FROM `user`);
