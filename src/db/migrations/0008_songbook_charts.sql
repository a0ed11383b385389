ALTER TABLE `repertoire_entries` ADD `transpose` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `repertoire_entries` ADD `capo` integer;--> statement-breakpoint
ALTER TABLE `setlist_entries` ADD `transpose` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `setlist_entries` ADD `capo` integer;--> statement-breakpoint
ALTER TABLE `songs` ADD `chart` text;