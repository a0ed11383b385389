CREATE TABLE `installation` (
	`id` integer PRIMARY KEY NOT NULL,
	`uid` text NOT NULL,
	`created_at` text NOT NULL,
	CONSTRAINT "installation_single_row" CHECK("installation"."id" = 1)
);
