// Package webhooks is the partners' (and staff's platform-wide) webhook
// endpoints: where the platform will send the events a partner's backend
// subscribes to, each with the secret that signs its deliveries. The URL
// rule (urls.go) keeps an endpoint from pointing the service at its own
// network.
package webhooks
