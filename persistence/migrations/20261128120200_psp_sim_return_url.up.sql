-- Where the simulated provider's pages send the card holder once a
-- pay-in has ended (a checkout's return page); '' keeps them on the page.
ALTER TABLE psp_sim_payins ADD COLUMN return_url text NOT NULL DEFAULT '';
