ALTER TABLE `monitor_location_status` ADD `cert_not_after` integer;
