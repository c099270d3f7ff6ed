ALTER TABLE `status_event` ADD `dispatched_at` integer;--> statement-breakpoint
CREATE INDEX `status_event_undispatched` ON `status_event` (`dispatched_at`);