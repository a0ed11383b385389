ALTER TABLE `survey_answers` ADD `comment` text;--> statement-breakpoint
ALTER TABLE `users` ADD `password_change_required` integer DEFAULT false NOT NULL;