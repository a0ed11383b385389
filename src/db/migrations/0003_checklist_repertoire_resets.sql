CREATE TABLE `gig_checklist_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`position` integer NOT NULL,
	`title` text NOT NULL,
	`category` text,
	`assignee_id` integer,
	`due_at` text,
	`done` integer DEFAULT false NOT NULL,
	`done_at` text,
	`done_by` integer,
	`notes` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`done_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `gig_checklist_items_gig_idx` ON `gig_checklist_items` (`gig_id`,`position`);--> statement-breakpoint
CREATE INDEX `gig_checklist_items_assignee_idx` ON `gig_checklist_items` (`assignee_id`,`done`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` integer,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `repertoire_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repertoire_id` integer NOT NULL,
	`set_id` integer NOT NULL,
	`position` integer NOT NULL,
	`song_id` integer NOT NULL,
	`notes` text,
	`duration_seconds` integer,
	FOREIGN KEY (`repertoire_id`) REFERENCES `repertoire_setlists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `repertoire_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `repertoire_entries_list_idx` ON `repertoire_entries` (`repertoire_id`,`position`);--> statement-breakpoint
CREATE INDEX `repertoire_entries_set_idx` ON `repertoire_entries` (`set_id`,`position`);--> statement-breakpoint
CREATE INDEX `repertoire_entries_song_idx` ON `repertoire_entries` (`song_id`);--> statement-breakpoint
CREATE TABLE `repertoire_setlists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`notes` text,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repertoire_setlists_name_unique` ON `repertoire_setlists` (lower("name"));--> statement-breakpoint
CREATE TABLE `repertoire_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repertoire_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`break_after_seconds` integer,
	FOREIGN KEY (`repertoire_id`) REFERENCES `repertoire_setlists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `repertoire_sets_list_idx` ON `repertoire_sets` (`repertoire_id`,`position`);--> statement-breakpoint
CREATE TABLE `setlist_publications` (
	`gig_id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`published_at` text NOT NULL,
	`published_by` integer,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`published_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
