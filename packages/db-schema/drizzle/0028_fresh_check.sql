CREATE TABLE `fresh_check` (
	`monitor_id` integer PRIMARY KEY NOT NULL,
	`asked_at` integer NOT NULL,
	`status` text,
	`answered_at` integer,
	FOREIGN KEY (`monitor_id`) REFERENCES `monitor`(`id`) ON UPDATE no action ON DELETE cascade
);
