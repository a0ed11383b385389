CREATE TABLE `refresh_token_history` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`session_id` integer NOT NULL,
	`rotated_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refresh_token_history_session_idx` ON `refresh_token_history` (`session_id`);