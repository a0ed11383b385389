CREATE TABLE `digest_jobs` (
	`due_at` text PRIMARY KEY NOT NULL,
	`done_at` text
);
--> statement-breakpoint
CREATE TABLE `gig_asked` (
	`gig_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`gig_id`, `user_id`),
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gig_asked_user_idx` ON `gig_asked` (`user_id`);--> statement-breakpoint
CREATE TABLE `gig_substitutes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`name` text NOT NULL,
	`instrument` text NOT NULL,
	`contact` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gig_substitutes_gig_idx` ON `gig_substitutes` (`gig_id`);--> statement-breakpoint
ALTER TABLE `notification_prefs` ADD `digest` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `occasional` integer DEFAULT false NOT NULL;