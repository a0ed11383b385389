CREATE TABLE `data_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`fingerprint` text NOT NULL,
	`file_name` text NOT NULL,
	`imported_at` text NOT NULL,
	`summary` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `data_imports_fingerprint_unique` ON `data_imports` (`source`,`fingerprint`);