package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// loadAnswer is one answer of a request sent from a goroutine, checked
// afterwards on the test's own.
type loadAnswer struct {
	what   string
	req    *http.Request
	status int
	header http.Header
	body   []byte
	took   time.Duration
	err    error
}

// send sends one request and times it; it never fails the test itself.
func send(method, url, token, body string, headers ...string) loadAnswer {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return loadAnswer{err: err}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Token "+token)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return loadAnswer{req: req, err: err, took: time.Since(start)}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return loadAnswer{req: req, status: res.StatusCode, header: res.Header, body: b, took: time.Since(start), err: err}
}

// Activations and payments at once, on one partner and on many, four
// times as many as the server's pool has connections: no request holds a
// connection while it waits for another or for the provider (whose
// simulated state has a pool of its own), so every answer is a success
// or, for an activation another request is starting, a 409, in good
// time; and another tenant's reads stay fast meanwhile.
func TestPaymentHubActivationsAndPaymentsUnderLoad(t *testing.T) {
	t.Parallel()
	const (
		pool     = 4
		parallel = 4 * pool
		// Generous, so that a loaded machine passes: a request that
		// waits for a connection nobody gives back waits for the
		// statements' deadline (5 s) and fails (503).
		writeBound = 3 * time.Second
		readBound  = 3 * time.Second
	)
	dsn := dbtest.NewDSN(t)
	staff := CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff")
	other := CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other")
	s := Serve(t, dsn, "--db-max-conns", strconv.Itoa(pool))
	hub := s.URL + hubBase

	newPartner := func(i int) string {
		res := Do(t, http.MethodPost, hub, body(t, hubRequired(), "commercial_name", fmt.Sprintf("Spa %d", i)), auth(staff)...)
		if res.Status != http.StatusCreated {
			t.Fatalf("create partner: %d %s", res.Status, res.Body)
		}
		return res.JSON(t)["uuid"].(string)
	}
	// paying: a partner whose payments are activated, verified on the
	// provider's page.
	paying := newPartner(0)
	res := Do(t, http.MethodPost, hub+paying+"/activate-payments/", "", auth(staff)...)
	if res.Status != http.StatusOK {
		t.Fatalf("activate: %d %s", res.Status, res.Body)
	}
	page := pagePath(t, res.JSON(t)["user_action_url"].(string))
	// The client follows the page's 303 to the page, which tells the outcome.
	if res := Do(t, http.MethodPost, s.URL+page, "decision=verify", "Content-Type", "application/x-www-form-urlencoded"); res.Status != http.StatusOK ||
		!strings.Contains(res.Body, "Identity verified") {
		t.Fatalf("verify: %d %s", res.Status, res.Body)
	}
	one := newPartner(1)
	many := make([]string, parallel)
	for i := range many {
		many[i] = newPartner(2 + i)
	}
	payment := func(i int) string {
		return body(t, map[string]any{"customer": map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com"},
			"partner_uuid": paying, "amount": 10 + i, "discount": 0, "product": "voucher", "type": "credit_card", "card": psp.CardSuccess})
	}

	var wg sync.WaitGroup
	answers := make(chan loadAnswer, 3*parallel)
	for i := range parallel {
		wg.Add(3)
		go func() {
			defer wg.Done()
			a := send(http.MethodPost, hub+one+"/activate-payments/", staff, "", "X-Idempotency-Key", fmt.Sprintf("one-%d", i))
			a.what = "activation of one partner"
			answers <- a
		}()
		go func() {
			defer wg.Done()
			a := send(http.MethodPost, hub+many[i]+"/activate-payments/", staff, "", "X-Idempotency-Key", fmt.Sprintf("many-%d", i))
			a.what = "activation of its own partner"
			answers <- a
		}()
		go func() {
			defer wg.Done()
			a := send(http.MethodPost, s.URL+paymentsBase, staff, payment(i), "X-Idempotency-Key", fmt.Sprintf("pay-%d", i))
			a.what = "payment"
			answers <- a
		}()
	}
	// Another tenant reads its payments all along.
	ctx, stop := context.WithCancel(context.Background())
	reads := make(chan loadAnswer, 1000)
	readsDone := make(chan struct{})
	go func() {
		defer close(readsDone)
		for ctx.Err() == nil && len(reads) < cap(reads) {
			a := send(http.MethodGet, s.URL+paymentsBase, other, "")
			a.what = "another tenant's read"
			reads <- a
			time.Sleep(20 * time.Millisecond)
		}
	}()
	wg.Wait()
	stop()
	<-readsDone
	close(answers)
	close(reads)

	statuses, slowest := map[string]map[int]int{}, map[string]time.Duration{}
	check := func(a loadAnswer, bound time.Duration, ok func(int) bool) {
		t.Helper()
		if statuses[a.what] == nil {
			statuses[a.what] = map[int]int{}
		}
		statuses[a.what][a.status]++
		slowest[a.what] = max(slowest[a.what], a.took)
		switch {
		case a.err != nil:
			t.Errorf("%s: %v", a.what, a.err)
		case !ok(a.status):
			t.Errorf("%s: %d after %s: %s", a.what, a.status, a.took, a.body)
		case a.took > bound:
			t.Errorf("%s: %d after %s, more than %s", a.what, a.status, a.took, bound)
		default:
			CheckContract(t, a.req, a.status, a.header, a.body)
		}
	}
	activated := 0
	for a := range answers {
		check(a, writeBound, func(status int) bool {
			return status/100 == 2 || status == http.StatusConflict && a.what == "activation of one partner"
		})
		if a.what == "activation of one partner" && a.status == http.StatusOK {
			activated++
		}
	}
	n := 0
	for a := range reads {
		n++
		check(a, readBound, func(status int) bool { return status == http.StatusOK })
	}
	t.Logf("answers %v, the slowest %v", statuses, slowest)
	if activated == 0 || n == 0 {
		t.Errorf("%d activations of one partner answered 200, %d reads", activated, n)
	}

	// One activation was started for the one partner, and its legal
	// representative's page answers at once.
	res = Do(t, http.MethodPost, hub+one+"/activate-payments/", "", auth(staff)...)
	if res.Status != http.StatusOK {
		t.Fatalf("activate after the burst: %d %s", res.Status, res.Body)
	}
	var activations int
	gcMust(t, OpenDB(t, dsn).NewRaw(`SELECT count(*) FROM payment_partner_activations a JOIN partners p ON p.id = a.partner_id
		WHERE p.uuid = ?`, one).Scan(context.Background(), &activations))
	if activations != 1 {
		t.Errorf("%d activations of one partner, want 1", activations)
	}
	start := time.Now()
	form := Do(t, http.MethodPost, s.URL+pagePath(t, res.JSON(t)["user_action_url"].(string)), "decision=verify",
		"Content-Type", "application/x-www-form-urlencoded")
	if form.Status != http.StatusOK || !strings.Contains(form.Body, "Identity verified") || time.Since(start) > writeBound {
		t.Errorf("provider's page: %d after %s: %s", form.Status, time.Since(start), form.Body)
	}
}
