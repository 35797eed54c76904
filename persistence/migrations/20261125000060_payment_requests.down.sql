DROP INDEX payments_payment_request_idx;
ALTER TABLE payments DROP CONSTRAINT payments_payment_request_fkey;
DROP TABLE payment_requests;
