package webhooks

import (
	"fmt"

	"salesplatform/domain/notify"
)

// KindEndpointDisabled is the mail telling a partner one of its endpoints
// was disabled.
const KindEndpointDisabled = "webhook_endpoint_disabled"

// disabledMail tells an administrator of h's partner that h was disabled
// and why. It is in English, the API's language: a partner has no
// language of its own, and its administrators read the API's
// documentation and errors in English.
func disabledMail(to string, h *Health, reason string) notify.Mail {
	return notify.Mail{Kind: KindEndpointDisabled, To: to, Language: "en",
		Subject: fmt.Sprintf("Webhook endpoint %d disabled", h.EndpointID),
		Text: fmt.Sprintf("Your webhook endpoint %d (%s) has been disabled: no more events are sent to it.\n\n"+
			"Reason: %s\n\n"+
			"Its deliveries that were waiting have failed, and the events published while it is disabled "+
			"are not kept for it. Once the receiver is fixed, enable the endpoint again "+
			"(PATCH /api/webhooks/endpoints/%d/ with {\"is_active\": true}).\n", h.EndpointID, h.URL, reason, h.EndpointID)}
}
