CREATE TABLE `gig_money` (
	`gig_id` integer PRIMARY KEY NOT NULL,
	`fee_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`paid` integer NOT NULL,
	`paid_on` text,
	`received_by` text,
	`invoice_number` text,
	`expenses` text NOT NULL,
	`rules` text NOT NULL,
	`version` integer NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `money_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`from_party` text NOT NULL,
	`to_party` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`paid_on` text NOT NULL,
	`note` text,
	`created_by` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `money_payments_paid_on_idx` ON `money_payments` (`paid_on`);