CREATE TABLE `analytics_export` (
	`store` text PRIMARY KEY NOT NULL,
	`exported_through` integer DEFAULT 0 NOT NULL,
	`pending_through` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
