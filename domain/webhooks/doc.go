// Package webhooks is the partners' (and staff's platform-wide) webhook
// endpoints and the events sent to them: where the platform sends the
// events a partner's backend subscribes to, each with the secret that
// signs its deliveries (endpoints: webhooks.go; the URL rule, urls.go,
// keeps an endpoint from pointing the service at its own network), and
// the events a service publishes in the transaction of the change they
// report (events.go).
package webhooks
