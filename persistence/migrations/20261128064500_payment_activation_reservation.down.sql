ALTER TABLE payment_partners
    DROP CONSTRAINT payment_partners_activation_reservation_check,
    DROP COLUMN activation_reserved_until,
    DROP COLUMN activation_request_id;
