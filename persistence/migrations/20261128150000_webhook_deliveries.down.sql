ALTER TABLE webhook_endpoints DROP COLUMN failing_since, DROP COLUMN disabled_reason;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
