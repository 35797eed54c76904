-- wrk: boxes → offers → partner → labels, from this service's graph.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Partner-Domain"] = "market.localhost"
wrk.body = '{"query":"{ boxes(first: 10) { edges { node { id name { fr } offers(first: 5) { edges { node { partner { id name labels { name logo } } } } } } } } }"}'
