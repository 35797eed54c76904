-- wrk: the same shape from PostGraphile (4 and 5) on the same tables.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = io.open(os.getenv("BODY") or "postgraphile.json"):read("*a")
