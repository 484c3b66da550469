-- Until when D1 keeps a moved organization's old rows (docs/decisions/0054): 30 days after its
-- move to its store, then the daily cron removes them.
ALTER TABLE `organization_stores` ADD `d1_copy_until` text;