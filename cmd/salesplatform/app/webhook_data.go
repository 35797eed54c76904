package app

import (
	"salesplatform/persistence"
	"salesplatform/rest"
)

// useWebhookData renders every webhook event's data as the REST API
// returns its resource: the binary alone knows both the stores and the
// REST encoding. Every command that opens the database (serve, seed,
// the jobs it runs) may publish events, so openDatabase calls it, and so
// does NewHandler (the tests' in-process server opens no database).
func useWebhookData() { persistence.SetWebhookRenderer(rest.WebhookData) }
