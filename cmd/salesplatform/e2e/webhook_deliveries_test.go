package e2e

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/webhookclient"
)

// consumerSource is README's consumer example, kept as a program.
const consumerSource = "docs/examples/webhookconsumer/main.go"

// TestWebhookReachesTheREADMEConsumer runs README's consumer example as
// written against a served endpoint: the delivery the server signs passes
// its verification, a forged one does not, and the attempt is counted.
func TestWebhookReachesTheREADMEConsumer(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..", "..")
	src, err := os.ReadFile(filepath.Join(root, consumerSource))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(src)+"```\n") {
		t.Fatalf("README.md's consumer example differs from %s", consumerSource)
	}

	dsn := dbtest.NewDSN(t)
	tok := CreateUser(t, dsn, "--username", "hook-consumer", "--password", "hook-consumer-pw", "--partner-name", "Consumer shop",
		"--permission", domain.PermManageMasterAdmin)
	db := OpenDB(t, dsn)
	srv := Serve(t, dsn, "--data-dir", t.TempDir(), "--webhook-allowed-networks", "127.0.0.0/8",
		"--webhook-retry-schedule", "200ms,200ms")
	addr := freeAddr(t)
	res := Do(t, "POST", srv.URL+webhookEndpoints, `{"url": "http://`+addr+`/hooks", "events": ["order.paid"]}`,
		append(auth(tok), "Content-Type", "application/json")...)
	if res.Status != 201 {
		t.Fatalf("create endpoint: %d %s", res.Status, res.Body)
	}
	created := res.JSON(t)
	secret := created["secret"].(string)
	lines := runConsumer(t, addr, secret)

	// The endpoint's test event: its data is the endpoint's record,
	// without its secret.
	sent := Do(t, "POST", srv.URL+webhookEndpoints+tourID(created["id"])+"/test/", "", auth(tok)...)
	if sent.Status != 202 {
		t.Fatalf("test event: %d %s", sent.Status, sent.Body)
	}
	var line string
	select {
	case line = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatalf("the consumer printed nothing within 30s; server log:\n%s", srv.Log)
	}
	eventID, _ := sent.JSON(t)["event_id"].(string)
	if !regexp.MustCompile(`^`+regexp.QuoteMeta(eventID)+` webhook\.test \{"id":`+tourID(created["id"])+`,.*"url":"http://`+regexp.QuoteMeta(addr)+`/hooks"`).MatchString(line) ||
		strings.Contains(line, "secret") {
		t.Errorf("consumer printed %q", line)
	}
	var state string
	waitUntil(t, "delivery succeeded", func() bool {
		_ = db.NewRaw(`SELECT state FROM webhook_deliveries`).Scan(t.Context(), &state)
		return state == webhooks.StateSucceeded
	})

	// A delivery signed with another secret is refused.
	other := "whsec_" + strings.Repeat("A", 43) + "="
	sig, err := webhookclient.Sign(other, "msg_forged", time.Now(), []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	forged := Do(t, "POST", "http://"+addr+"/hooks", `{}`, "webhook-id", "msg_forged",
		"webhook-timestamp", strconv.FormatInt(time.Now().Unix(), 10), "webhook-signature", sig)
	if forged.Status != 401 {
		t.Errorf("forged delivery: %d %s", forged.Status, forged.Body)
	}
	metrics := Do(t, "GET", srv.URL+"/metrics", "")
	if !strings.Contains(metrics.Body, `salesplatform_webhook_deliveries_total{event_type="webhook.test",outcome="succeeded"} 1`) {
		t.Errorf("/metrics lacks the delivery:\n%s", metrics.Body)
	}
}

// freeAddr is a loopback address no one listens on (yet).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// runConsumer builds and runs the consumer example on addr with secret,
// once it listens, and returns its output's lines.
func runConsumer(t *testing.T, addr, secret string) <-chan string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "webhookconsumer")
	if out, err := exec.Command("go", "build", "-o", bin, "salesplatform/docs/examples/webhookconsumer").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "WEBHOOK_SECRET="+secret, "ADDR="+addr)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	waitUntil(t, "the consumer listening", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return lines
}

// waitUntil polls cond for at most 20 seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not %s after 20s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
