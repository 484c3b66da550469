-- Sending broadcasts (contract section 17, docs/decisions/0061): an organization's time zone
-- and quiet hours (guessed from its country, as worker/organizations/time-zone.ts does for new
-- ones: SQLite's lower() leaves accented capitals, so both spellings are listed), and what a
-- broadcast being sent keeps: its audience read once, why and until when it waits, and that
-- its results changed. The organization tables' part is store migration 7.
ALTER TABLE `broadcasts` ADD `audience_read_at` text;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `wait_reason` text;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `wait_until` text;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `stats_changed_at` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `time_zone` text DEFAULT 'Europe/Madrid' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `quiet_hours_start` text DEFAULT '21:00' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `quiet_hours_end` text DEFAULT '09:00' NOT NULL;--> statement-breakpoint
CREATE INDEX `broadcast_recipients_sent_idx` ON `broadcast_recipients` (`organization_id`,`sent_at`);;--> statement-breakpoint
UPDATE `organizations` SET `time_zone` = CASE lower(trim(`country`))
  WHEN 'espana' THEN 'Europe/Madrid'
  WHEN 'españa' THEN 'Europe/Madrid'
  WHEN 'spain' THEN 'Europe/Madrid'
  WHEN 'mexico' THEN 'America/Mexico_City'
  WHEN 'méxico' THEN 'America/Mexico_City'
  WHEN 'colombia' THEN 'America/Bogota'
  WHEN 'argentina' THEN 'America/Argentina/Buenos_Aires'
  WHEN 'chile' THEN 'America/Santiago'
  WHEN 'peru' THEN 'America/Lima'
  WHEN 'perú' THEN 'America/Lima'
  WHEN 'ecuador' THEN 'America/Guayaquil'
  WHEN 'venezuela' THEN 'America/Caracas'
  WHEN 'uruguay' THEN 'America/Montevideo'
  WHEN 'paraguay' THEN 'America/Asuncion'
  WHEN 'bolivia' THEN 'America/La_Paz'
  WHEN 'guatemala' THEN 'America/Guatemala'
  WHEN 'costa rica' THEN 'America/Costa_Rica'
  WHEN 'panama' THEN 'America/Panama'
  WHEN 'panamá' THEN 'America/Panama'
  WHEN 'republica dominicana' THEN 'America/Santo_Domingo'
  WHEN 'república dominicana' THEN 'America/Santo_Domingo'
  WHEN 'el salvador' THEN 'America/El_Salvador'
  WHEN 'honduras' THEN 'America/Tegucigalpa'
  WHEN 'nicaragua' THEN 'America/Managua'
  WHEN 'puerto rico' THEN 'America/Puerto_Rico'
  WHEN 'estados unidos' THEN 'America/New_York'
  WHEN 'brasil' THEN 'America/Sao_Paulo'
  WHEN 'brazil' THEN 'America/Sao_Paulo'
  WHEN 'portugal' THEN 'Europe/Lisbon'
  WHEN 'reino unido' THEN 'Europe/London'
  WHEN 'francia' THEN 'Europe/Paris'
  WHEN 'alemania' THEN 'Europe/Berlin'
  WHEN 'italia' THEN 'Europe/Rome'
  ELSE `time_zone` END;
