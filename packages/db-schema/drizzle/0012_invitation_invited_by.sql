ALTER TABLE `invitation` ADD `invited_by` text;--> statement-breakpoint
-- Invitations sent before this column: their sender is the actor of the latest invitation to that address.
UPDATE `invitation` SET `invited_by` = (
  SELECT `a`.`actor` FROM `audit_log` `a`
  WHERE `a`.`workspace_id` = `invitation`.`workspace_id` AND `a`.`action` = 'member.invite' AND `a`.`target_id` = `invitation`.`email`
  ORDER BY `a`.`id` DESC LIMIT 1
) WHERE `accepted_at` IS NULL;
