CREATE TABLE `app_logo` (
	`id` integer PRIMARY KEY NOT NULL,
	`mime_type` text NOT NULL,
	`data` blob NOT NULL,
	`etag` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "app_logo_single_row" CHECK("app_logo"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `app_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`config` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "app_settings_single_row" CHECK("app_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `calendar_tokens` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_tokens_hash_unique` ON `calendar_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `gig_availability` (
	`gig_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`status` text NOT NULL,
	`note` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`gig_id`, `user_id`),
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gig_availability_user_idx` ON `gig_availability` (`user_id`);--> statement-breakpoint
CREATE TABLE `gig_schedule_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`at` text NOT NULL,
	`title` text NOT NULL,
	`who` text,
	`where` text,
	`notes` text,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gig_schedule_items_gig_idx` ON `gig_schedule_items` (`gig_id`,`at`);--> statement-breakpoint
CREATE TABLE `gigs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`date` text NOT NULL,
	`kind` text,
	`status` text DEFAULT 'inquiry' NOT NULL,
	`venue_name` text,
	`venue_address` text,
	`venue_city` text,
	`organizer_name` text,
	`organizer_contact` text,
	`get_in_time` text,
	`soundcheck_time` text,
	`doors_time` text,
	`start_time` text,
	`end_time` text,
	`notes` text,
	`setlist_version` integer DEFAULT 0 NOT NULL,
	`live_version` integer DEFAULT 0 NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gigs_date_idx` ON `gigs` (`date`,`start_time`);--> statement-breakpoint
CREATE INDEX `gigs_status_idx` ON `gigs` (`status`);--> statement-breakpoint
CREATE TABLE `rehearsal_availability` (
	`rehearsal_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`status` text NOT NULL,
	`note` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`rehearsal_id`, `user_id`),
	FOREIGN KEY (`rehearsal_id`) REFERENCES `rehearsals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rehearsal_availability_user_idx` ON `rehearsal_availability` (`user_id`);--> statement-breakpoint
CREATE TABLE `rehearsal_songs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`rehearsal_id` integer NOT NULL,
	`song_id` integer NOT NULL,
	`position` integer NOT NULL,
	`notes` text,
	`done` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`rehearsal_id`) REFERENCES `rehearsals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rehearsal_songs_rehearsal_idx` ON `rehearsal_songs` (`rehearsal_id`,`position`);--> statement-breakpoint
CREATE TABLE `rehearsals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`date` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`location` text,
	`notes` text,
	`sequence` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rehearsals_date_idx` ON `rehearsals` (`date`,`start_time`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`refresh_hash` text NOT NULL,
	`previous_refresh_hash` text,
	`rotated_at` text,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`user_agent` text,
	`ip` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_refresh_hash_unique` ON `sessions` (`refresh_hash`);--> statement-breakpoint
CREATE INDEX `sessions_previous_refresh_hash_idx` ON `sessions` (`previous_refresh_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `setlist_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`set_id` integer NOT NULL,
	`position` integer NOT NULL,
	`song_id` integer NOT NULL,
	`notes` text,
	`duration_seconds` integer,
	`status` text DEFAULT 'planned' NOT NULL,
	`inserted` integer DEFAULT false NOT NULL,
	`rating` integer,
	`live_updated_at` text,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `setlist_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "setlist_entries_rating_range" CHECK("setlist_entries"."rating" IS NULL OR "setlist_entries"."rating" BETWEEN 1 AND 3)
);
--> statement-breakpoint
CREATE INDEX `setlist_entries_gig_idx` ON `setlist_entries` (`gig_id`,`position`);--> statement-breakpoint
CREATE INDEX `setlist_entries_set_idx` ON `setlist_entries` (`set_id`,`position`);--> statement-breakpoint
CREATE INDEX `setlist_entries_song_idx` ON `setlist_entries` (`song_id`);--> statement-breakpoint
CREATE TABLE `setlist_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`break_after_seconds` integer,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `setlist_sets_gig_idx` ON `setlist_sets` (`gig_id`,`position`);--> statement-breakpoint
CREATE TABLE `song_votes` (
	`song_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`vote` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`song_id`, `user_id`),
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `song_votes_user_idx` ON `song_votes` (`user_id`);--> statement-breakpoint
CREATE TABLE `songs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`artist` text,
	`genre` text,
	`duration_seconds` integer,
	`key` text,
	`tempo_bpm` integer,
	`lead_singer` text,
	`backing_vocals` text,
	`composers` text DEFAULT '[]' NOT NULL,
	`lyricists` text DEFAULT '[]' NOT NULL,
	`arrangers` text DEFAULT '[]' NOT NULL,
	`publisher` text,
	`gema_work_number` text,
	`iswc` text,
	`is_original` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'proposed' NOT NULL,
	`notes` text,
	`links` text DEFAULT '[]' NOT NULL,
	`proposed_by` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`proposed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `songs_title_idx` ON `songs` (`title`);--> statement-breakpoint
CREATE INDEX `songs_status_idx` ON `songs` (`status`);--> statement-breakpoint
CREATE TABLE `survey_answers` (
	`survey_id` integer NOT NULL,
	`option_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`value` text NOT NULL,
	`answered_at` text NOT NULL,
	PRIMARY KEY(`option_id`, `user_id`),
	FOREIGN KEY (`survey_id`) REFERENCES `surveys`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`option_id`) REFERENCES `survey_options`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `survey_answers_survey_user_idx` ON `survey_answers` (`survey_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `survey_options` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`survey_id` integer NOT NULL,
	`position` integer NOT NULL,
	`label` text NOT NULL,
	`at` text,
	FOREIGN KEY (`survey_id`) REFERENCES `surveys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `survey_options_survey_idx` ON `survey_options` (`survey_id`,`position`);--> statement-breakpoint
CREATE TABLE `surveys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`kind` text NOT NULL,
	`multiple_choice` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`closes_at` text,
	`created_by` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `surveys_created_idx` ON `surveys` (`created_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`display_name` text NOT NULL,
	`email` text,
	`role` text DEFAULT 'member' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`is_musician` integer DEFAULT true NOT NULL,
	`is_singer` integer DEFAULT false NOT NULL,
	`instruments` text DEFAULT '[]' NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));