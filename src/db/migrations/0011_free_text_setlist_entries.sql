PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_repertoire_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repertoire_id` integer NOT NULL,
	`set_id` integer NOT NULL,
	`position` integer NOT NULL,
	`song_id` integer,
	`title` text,
	`notes` text,
	`duration_seconds` integer,
	`transpose` integer DEFAULT 0 NOT NULL,
	`capo` integer,
	FOREIGN KEY (`repertoire_id`) REFERENCES `repertoire_setlists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `repertoire_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
INSERT INTO `__new_repertoire_entries`("id", "repertoire_id", "set_id", "position", "song_id", "title", "notes", "duration_seconds", "transpose", "capo") SELECT "id", "repertoire_id", "set_id", "position", "song_id", NULL, "notes", "duration_seconds", "transpose", "capo" FROM `repertoire_entries`;--> statement-breakpoint
DROP TABLE `repertoire_entries`;--> statement-breakpoint
ALTER TABLE `__new_repertoire_entries` RENAME TO `repertoire_entries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `repertoire_entries_list_idx` ON `repertoire_entries` (`repertoire_id`,`position`);--> statement-breakpoint
CREATE INDEX `repertoire_entries_set_idx` ON `repertoire_entries` (`set_id`,`position`);--> statement-breakpoint
CREATE INDEX `repertoire_entries_song_idx` ON `repertoire_entries` (`song_id`);--> statement-breakpoint
CREATE TABLE `__new_setlist_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`set_id` integer NOT NULL,
	`position` integer NOT NULL,
	`song_id` integer,
	`title` text,
	`notes` text,
	`duration_seconds` integer,
	`status` text DEFAULT 'planned' NOT NULL,
	`inserted` integer DEFAULT false NOT NULL,
	`rating` integer,
	`live_updated_at` text,
	`transpose` integer DEFAULT 0 NOT NULL,
	`capo` integer,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `setlist_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "setlist_entries_rating_range" CHECK("__new_setlist_entries"."rating" IS NULL OR "__new_setlist_entries"."rating" BETWEEN 1 AND 3)
);
--> statement-breakpoint
INSERT INTO `__new_setlist_entries`("id", "gig_id", "set_id", "position", "song_id", "title", "notes", "duration_seconds", "status", "inserted", "rating", "live_updated_at", "transpose", "capo") SELECT "id", "gig_id", "set_id", "position", "song_id", NULL, "notes", "duration_seconds", "status", "inserted", "rating", "live_updated_at", "transpose", "capo" FROM `setlist_entries`;--> statement-breakpoint
DROP TABLE `setlist_entries`;--> statement-breakpoint
ALTER TABLE `__new_setlist_entries` RENAME TO `setlist_entries`;--> statement-breakpoint
CREATE INDEX `setlist_entries_gig_idx` ON `setlist_entries` (`gig_id`,`position`);--> statement-breakpoint
CREATE INDEX `setlist_entries_set_idx` ON `setlist_entries` (`set_id`,`position`);--> statement-breakpoint
CREATE INDEX `setlist_entries_song_idx` ON `setlist_entries` (`song_id`);
-- data: none. Note for a regeneration: drizzle-kit's two INSERT … SELECT above selected the new
-- `title` column from the old tables (which lack it); they were corrected by hand to select NULL.
