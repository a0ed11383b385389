CREATE TABLE `files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`song_id` integer,
	`gig_id` integer,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`sha256` text NOT NULL,
	`bytes` integer NOT NULL,
	`uploaded_by` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`song_id`) REFERENCES `songs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "files_one_owner" CHECK(("files"."song_id" IS NULL) <> ("files"."gig_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `files_song_idx` ON `files` (`song_id`);--> statement-breakpoint
CREATE INDEX `files_gig_idx` ON `files` (`gig_id`);--> statement-breakpoint
CREATE INDEX `files_sha256_idx` ON `files` (`sha256`);