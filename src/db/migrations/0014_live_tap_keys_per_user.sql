DROP INDEX `live_taps_key_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `live_taps_key_idx` ON `live_taps` (`gig_id`,`user_id`,`idempotency_key`);