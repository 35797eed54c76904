-- A resend starts a new generation of a delivery, and its job carries the
-- generation it was queued for: a job of an earlier generation, still
-- waiting for a retry when its delivery was failed and sent again, then
-- finds itself superseded and sends nothing (webhooks.DeliveryService).
ALTER TABLE webhook_deliveries ADD COLUMN generation integer NOT NULL DEFAULT 0;
