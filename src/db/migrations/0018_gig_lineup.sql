CREATE TABLE `gig_lineup` (
	`gig_id` integer NOT NULL,
	`position` integer NOT NULL,
	`instrument` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`gig_id`, `position`),
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade
);
