ALTER TABLE `monitor` ADD `options` text;--> statement-breakpoint
ALTER TABLE `monitor` ADD `connection` text;