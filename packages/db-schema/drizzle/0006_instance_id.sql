CREATE TABLE `instance` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
INSERT INTO `instance` (`id`) SELECT lower(hex(randomblob(8))) WHERE NOT EXISTS (SELECT 1 FROM `instance`);