CREATE TABLE `live_taps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gig_id` integer NOT NULL,
	`kind` text NOT NULL,
	`before` text NOT NULL,
	`undone_by` integer,
	`idempotency_key` text,
	`user_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `live_taps_gig_idx` ON `live_taps` (`gig_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `live_taps_key_idx` ON `live_taps` (`gig_id`,`idempotency_key`);