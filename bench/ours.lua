-- wrk: boxes → offers → partner → labels, from this service's graph.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Partner-Domain"] = "market.localhost"
wrk.body = io.open(os.getenv("BODY") or "ours.json"):read("*a")
