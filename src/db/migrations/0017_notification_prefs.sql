CREATE TABLE `notification_prefs` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`mail` integer DEFAULT true NOT NULL,
	`new_events` integer DEFAULT true NOT NULL,
	`changes` integer DEFAULT true NOT NULL,
	`reminders` integer DEFAULT true NOT NULL,
	`surveys` integer DEFAULT true NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `unsubscribe_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`topic` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `unsubscribe_tokens_user_idx` ON `unsubscribe_tokens` (`user_id`);