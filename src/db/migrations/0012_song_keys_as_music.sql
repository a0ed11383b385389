ALTER TABLE `songs` ADD `key_text` text;--> statement-breakpoint
-- data: keys are no setting any more (pitch class + mode, src/shared/keys.ts). The stored keys
-- themselves are converted by convertStoredKeys (src/db/stored-keys.ts), run by openDatabase.
UPDATE `app_settings` SET `config` = json_remove(`config`, '$.keys') WHERE json_valid(`config`);
