CREATE TABLE `answer_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`event_id` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `answer_tokens_event_idx` ON `answer_tokens` (`kind`,`event_id`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`idem_key` text NOT NULL,
	`user_id` integer,
	`to_address` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_idem_key_unique` ON `mail_outbox` (`idem_key`);--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `mail_watch` (
	`kind` text NOT NULL,
	`event_id` integer NOT NULL,
	`seen` text NOT NULL,
	`facts` text NOT NULL,
	PRIMARY KEY(`kind`, `event_id`)
);
--> statement-breakpoint
-- The events that exist already are known, not new: no mail about them until they change.
INSERT INTO `mail_watch` (`kind`, `event_id`, `seen`, `facts`) SELECT 'gig', `id`, `sequence`, '' FROM `gigs`;--> statement-breakpoint
INSERT INTO `mail_watch` (`kind`, `event_id`, `seen`, `facts`) SELECT 'rehearsal', `id`, `sequence`, '' FROM `rehearsals`;--> statement-breakpoint
INSERT INTO `mail_watch` (`kind`, `event_id`, `seen`, `facts`) SELECT 'survey', `id`, `updated_at`, '' FROM `surveys`;
