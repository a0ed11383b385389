CREATE TABLE `answer_deadlines` (
	`kind` text NOT NULL,
	`event_id` integer NOT NULL,
	`answer_by` text,
	`locked` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`kind`, `event_id`)
);
--> statement-breakpoint
CREATE TABLE `mail_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`event_id` integer NOT NULL,
	`due_at` text NOT NULL,
	`done_at` text
);
--> statement-breakpoint
CREATE INDEX `mail_jobs_due_idx` ON `mail_jobs` (`done_at`,`due_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `mail_jobs_event_due_unique` ON `mail_jobs` (`kind`,`event_id`,`due_at`);