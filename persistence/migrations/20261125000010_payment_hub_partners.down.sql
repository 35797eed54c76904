DROP TABLE psp_sim_refunds;
DROP TABLE psp_sim_payins;
DROP TABLE psp_sim_activations;
DROP TABLE kyc_documents;
DROP TABLE payment_partner_audit;
DROP TABLE payment_partner_activations;
DROP TABLE payment_partners;
