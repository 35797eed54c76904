DELETE FROM psp_sim_payins WHERE status = 'PENDING_CARD';
ALTER TABLE psp_sim_payins DROP CONSTRAINT psp_sim_payins_status_check;
ALTER TABLE psp_sim_payins ADD CONSTRAINT psp_sim_payins_status_check
    CHECK (status IN ('SUCCEEDED', 'FAILED', 'PENDING_3DS'));
DROP TABLE payment_hub_audit;
DROP TABLE payment_transactions;
DROP TABLE payment_refunds;
ALTER TABLE wallet_movements DROP CONSTRAINT wallet_movements_payment_fkey;
DROP TABLE payments;
DROP TABLE payout_requests;
