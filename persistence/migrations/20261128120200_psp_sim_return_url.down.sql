ALTER TABLE psp_sim_payins DROP COLUMN return_url;
