// Command webhookconsumer receives the platform's webhooks as a partner's
// backend would: it verifies each delivery with the Standard Webhooks
// library, handles each event once, and answers 204 (README.md,
// "Webhooks"). WEBHOOK_SECRET is the endpoint's secret, ADDR where to
// listen; the endpoint's URL is http(s)://ADDR/hooks.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"sync"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// event is a delivery's body.
type event struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"` // when the change happened
	Data      json.RawMessage `json:"data"`      // the resource, as the REST API returns it
}

func main() {
	wh, err := standardwebhooks.NewWebhook(os.Getenv("WEBHOOK_SECRET")) // whsec_…
	if err != nil {
		log.Fatal(err)
	}
	var seen sync.Map // webhook-ids handled; keep them in your database
	http.HandleFunc("POST /hooks", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		// The signature, over webhook-id, webhook-timestamp and the body,
		// and a timestamp within five minutes.
		if err := wh.Verify(body, r.Header); err != nil {
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		var ev event
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "invalid JSON", http.StatusBadRequest)
			return
		}
		// A retried delivery has the same webhook-id: handle it once.
		if _, dup := seen.LoadOrStore(r.Header.Get("webhook-id"), true); !dup {
			fmt.Printf("%s %s %s\n", r.Header.Get("webhook-id"), ev.Type, ev.Data)
		}
		w.WriteHeader(http.StatusNoContent) // any 2xx, within 10 seconds
	})
	log.Fatal(http.ListenAndServe(os.Getenv("ADDR"), nil))
}
