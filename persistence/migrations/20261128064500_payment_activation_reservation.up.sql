-- The start of a partner's payments activation, reserved on the hub's
-- record before the provider is asked, outside any transaction
-- (domain/payments ActivatePayments: reserve, call, settle). The request
-- id names the activation at the provider, so that a start taken over
-- after its lease ran out (its process died) asks for the same one.
ALTER TABLE payment_partners
    ADD COLUMN activation_request_id     uuid,
    ADD COLUMN activation_reserved_until timestamptz,
    ADD CONSTRAINT payment_partners_activation_reservation_check
        CHECK ((activation_request_id IS NULL) = (activation_reserved_until IS NULL));
