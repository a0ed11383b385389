ALTER TABLE `app_logo` ADD `prepared` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `app_logo` ADD `watermark` blob;--> statement-breakpoint
ALTER TABLE `app_logo` ADD `accent` text;