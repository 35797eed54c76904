ALTER TABLE webhook_deliveries DROP COLUMN generation;
