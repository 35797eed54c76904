package mailer_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/riverqueue/river/rivertype"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain/notify"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/mailer"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// smtpServer is an SMTP server on 127.0.0.1 that keeps what it is sent;
// refuse, when set, answers each DATA (counted from 0) and rcpt each
// recipient, an error refusing it. With a user, it takes mails only after
// AUTH PLAIN with user and password.
type smtpServer struct {
	addr           string
	mu             sync.Mutex
	datas          int
	received       chan received
	refuse         func(n int) error
	rcpt           func(to string) error
	user, password string
}

type received struct {
	from string
	to   []string
	data []byte
	tls  bool // the mail came over TLS
}

func newSMTPServer(t *testing.T) *smtpServer { return listenSMTP(t, nil, false) }

// listenSMTP starts the server; with cfg it offers STARTTLS, or with
// implicit speaks TLS from the first byte.
func listenSMTP(t *testing.T, cfg *tls.Config, implicit bool) *smtpServer {
	t.Helper()
	s := &smtpServer{received: make(chan received, 16)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{srv: s, conn: c}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true // on loopback, as a local relay
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.TLSConfig = cfg
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if implicit {
		ln = tls.NewListener(ln, cfg)
	}
	s.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// selfSigned is a certificate for 127.0.0.1: the server's TLS
// configuration, and a client's that trusts it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: roots, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
}

// next waits for the next message the server took.
func (s *smtpServer) next(t *testing.T) received {
	t.Helper()
	select {
	case r := <-s.received:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("no mail reached the SMTP server within 20s")
		return received{}
	}
}

type session struct {
	srv    *smtpServer
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if s.srv.user == "" || user != s.srv.user || password != s.srv.password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Bad credentials"}
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.srv.user != "" && !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.srv.rcpt != nil {
		if err := s.srv.rcpt(to); err != nil {
			return err
		}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	n := s.srv.datas
	s.srv.datas++
	s.srv.mu.Unlock()
	if s.srv.refuse != nil {
		if err := s.srv.refuse(n); err != nil {
			return err
		}
	}
	_, secure := s.conn.TLSConnectionState()
	s.srv.received <- received{from: s.from, to: s.to, data: b, tls: secure}
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// lockedBuffer is a log destination River's goroutines may share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// soon retries a failed delivery after 10ms rather than River's second.
type soon struct{}

func (soon) NextRetry(*rivertype.JobRow) time.Time { return time.Now().Add(10 * time.Millisecond) }

type fixture struct {
	db  *bun.DB
	log *lockedBuffer
}

// start runs the delivery on a fresh database with cfg (its From, Logger,
// FetchPollInterval and RetryPolicy filled in when unset).
func start(t *testing.T, cfg mailer.Config) *fixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	db, err := persistence.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	pool, err := persistence.OpenPgxPool(t.Context(), dsn, mailer.PoolConns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	f := &fixture{db: db, log: &lockedBuffer{}}
	if cfg.From == "" {
		cfg.From = "Marché des Loisirs <no-reply@market.example.com>"
	}
	cfg.Logger = slog.New(slog.NewJSONHandler(f.log, nil))
	cfg.FetchPollInterval = 100 * time.Millisecond
	if cfg.RetryPolicy == nil {
		cfg.RetryPolicy = soon{}
	}
	m, err := mailer.Start(t.Context(), pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := m.Stop(ctx); err != nil {
			t.Error(err)
		}
	})
	return f
}

// enqueue queues mails in a committed transaction, as a service does.
func (f *fixture) enqueue(t *testing.T, mails ...notify.Mail) {
	t.Helper()
	err := persistence.NewUnitOfWork(f.db, persistence.NewOutbox).RunInTx(t.Context(), func(ctx context.Context, o *persistence.Outbox) error {
		return o.Enqueue(ctx, mails...)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type job struct {
	ID        int64     `bun:"id"`
	State     string    `bun:"state"`
	Attempt   int       `bun:"attempt"`
	Errors    string    `bun:"errors"`
	CreatedAt time.Time `bun:"created_at"`
}

// waitJobs waits until every job is in a final state, and returns them in
// insertion order.
func (f *fixture) waitJobs(t *testing.T) []job {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var jobs []job
		err := f.db.NewRaw(`SELECT id, state, attempt, coalesce(errors::text, '') AS errors, created_at FROM river_job ORDER BY id`).
			Scan(t.Context(), &jobs)
		if err != nil {
			t.Fatal(err)
		}
		final := len(jobs) > 0
		for _, j := range jobs {
			final = final && (j.State == "completed" || j.State == "cancelled" || j.State == "discarded")
		}
		if final {
			return jobs
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs not done within 20s: %+v\nlog:\n%s", jobs, f.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func usageMails(t *testing.T, lang string) []notify.Mail {
	t.Helper()
	mails, err := notify.UsageMails(notify.UsageNotification{
		Language: lang, MarketplaceName: "Marché des Loisirs", MarketplaceEmail: "ops@market.example.com",
		PartnerName: "Château de la Loire", BeneficiaryEmail: "Jörg Müller <jorg@example.com>", CardCode: "NGC-7F3K-9Q2M",
		Value: decimal.RequireFromString("12.5"), RemainingValue: decimal.RequireFromString("37.5"), Currency: "EUR",
		Date: time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC),
	})
	if err != nil {
		t.Fatal(err)
	}
	return mails
}

// message is a received mail, its headers and its text decoded.
type message struct {
	header mail.Header
	text   string // the text/plain part, "\n" line ends
	html   string
}

func parse(t *testing.T, data []byte) message {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	out := message{header: msg.Header}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	part := func(ctype string, cte string, r io.Reader) {
		t.Helper()
		pt, pp, err := mime.ParseMediaType(ctype)
		if err != nil || !strings.EqualFold(pp["charset"], "utf-8") {
			t.Errorf("Content-Type %q: want charset utf-8", ctype)
		}
		if strings.EqualFold(cte, "quoted-printable") {
			r = quotedprintable.NewReader(r)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(b), "\r\n", "\n")
		if pt == "text/html" {
			out.html = s
		} else {
			out.text = s
		}
	}
	if mediaType != "multipart/alternative" {
		part(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
		return out
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextRawPart()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		part(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
	}
}

// TestDeliverOverSMTP: two mails committed in one transaction, in French
// and German, reach the SMTP server once each, with their headers.
func TestDeliverOverSMTP(t *testing.T) {
	t.Parallel()
	srv := newSMTPServer(t)
	smtpURL, err := mailer.ParseSMTPURL("smtp://" + srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	f := start(t, mailer.Config{SMTP: smtpURL})
	fr := usageMails(t, "fr")[0] // to the marketplace
	de := usageMails(t, "de")[1] // to the beneficiary
	html := notify.Mail{Kind: "test_html", To: "html@example.com", Subject: "Test", Text: "Plain text.\n",
		HTML: "<p>Résumé</p>\n", Language: "en"}
	f.enqueue(t, fr, de, html)

	got := map[string]received{}
	for range 3 {
		r := srv.next(t)
		if len(r.to) != 1 || got[r.to[0]].data != nil {
			t.Fatalf("recipients %v (so far %d mails)", r.to, len(got))
		}
		got[r.to[0]] = r
	}
	jobs := f.waitJobs(t)
	dec := new(mime.WordDecoder)
	for i, tc := range []struct {
		mail notify.Mail
		rcpt string
	}{{fr, "ops@market.example.com"}, {de, "jorg@example.com"}, {html, "html@example.com"}} {
		r, ok := got[tc.rcpt]
		if !ok {
			t.Fatalf("nothing sent to %s; got %v", tc.rcpt, got)
		}
		if r.from != "no-reply@market.example.com" {
			t.Errorf("MAIL FROM %q", r.from)
		}
		m := parse(t, r.data)
		h := m.header
		if from, err := h.AddressList("From"); err != nil || len(from) != 1 || from[0].Address != "no-reply@market.example.com" ||
			from[0].Name != "Marché des Loisirs" {
			t.Errorf("From %q (%v)", h.Get("From"), err)
		}
		want, _ := mail.ParseAddress(tc.mail.To)
		if to, err := h.AddressList("To"); err != nil || len(to) != 1 || *to[0] != *want {
			t.Errorf("To %q (%v), want %v", h.Get("To"), err, want)
		}
		if subject, err := dec.DecodeHeader(h.Get("Subject")); err != nil || subject != tc.mail.Subject {
			t.Errorf("Subject %q (%v), want %q", h.Get("Subject"), err, tc.mail.Subject)
		}
		// The job's: the same on every attempt.
		if date, err := h.Date(); err != nil || !date.Equal(jobs[i].CreatedAt.Truncate(time.Second)) {
			t.Errorf("Date %q (%v), want the job's creation %v", h.Get("Date"), err, jobs[i].CreatedAt)
		}
		if id := h.Get("Message-Id"); !regexp.MustCompile(`^<[0-9]+\.[0-9a-z]+@market\.example\.com>$`).MatchString(id) {
			t.Errorf("Message-ID %q", id)
		}
		if h.Get("Content-Language") != tc.mail.Language || h.Get("Auto-Submitted") != "auto-generated" {
			t.Errorf("Content-Language %q, Auto-Submitted %q", h.Get("Content-Language"), h.Get("Auto-Submitted"))
		}
		if m.text != tc.mail.Text || m.html != tc.mail.HTML {
			t.Errorf("body:\n%q\n%q\nwant\n%q\n%q", m.text, m.html, tc.mail.Text, tc.mail.HTML)
		}
	}
	for _, want := range []string{"Montant\u00a0: 12,50\u00a0€", "Restguthaben: 37,50\u00a0€"} {
		if !strings.Contains(parse(t, got["ops@market.example.com"].data).text+parse(t, got["jorg@example.com"].data).text, want) {
			t.Errorf("no %q in the mails", want)
		}
	}
	for _, j := range jobs {
		if j.State != "completed" || j.Attempt != 1 {
			t.Errorf("job %+v, want completed at the first attempt", j)
		}
	}
	if !strings.Contains(f.log.String(), `"msg":"mail sent"`) {
		t.Errorf("no delivery logged:\n%s", f.log)
	}
}

// TestDeliverWithoutSMTPLogs: without SMTP_URL a mail is logged whole and
// its job completes.
func TestDeliverWithoutSMTPLogs(t *testing.T) {
	t.Parallel()
	f := start(t, mailer.Config{})
	m := usageMails(t, "it")[1]
	m.HTML = "<p>Carta regalo</p>"
	f.enqueue(t, m)
	jobs := f.waitJobs(t)
	if len(jobs) != 1 || jobs[0].State != "completed" {
		t.Fatalf("jobs %+v, want one completed", jobs)
	}
	var logged map[string]any
	sc := bufio.NewScanner(strings.NewReader(f.log.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err == nil && line["msg"] == "mail logged, not sent: no SMTP_URL" {
			logged = line
		}
	}
	if logged == nil {
		t.Fatalf("no mail logged:\n%s", f.log)
	}
	for key, want := range map[string]any{"level": "INFO", "kind": notify.KindUsageBeneficiary, "to": m.To, "subject": m.Subject,
		"text": m.Text, "html": m.HTML, "language": "it", "from": "no-reply@market.example.com",
		"job_id": float64(jobs[0].ID)} {
		if logged[key] != want {
			t.Errorf("logged %s = %q, want %q", key, logged[key], want)
		}
	}
	if !strings.Contains(m.Text, "Saldo residuo: 37,50\u00a0€") {
		t.Errorf("the Italian text: %q", m.Text)
	}
}

// TestDeliverRetriesTemporaryFailure: a 451 to the first DATA is retried
// and the mail delivered at the second attempt.
func TestDeliverRetriesTemporaryFailure(t *testing.T) {
	t.Parallel()
	srv := newSMTPServer(t)
	srv.refuse = func(n int) error {
		if n == 0 {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
		}
		return nil
	}
	smtpURL, err := mailer.ParseSMTPURL("smtp://" + srv.addr + "?starttls=none")
	if err != nil {
		t.Fatal(err)
	}
	f := start(t, mailer.Config{SMTP: smtpURL})
	m := usageMails(t, "es")[0]
	f.enqueue(t, m)
	r := srv.next(t)
	if got := parse(t, r.data).text; got != m.Text {
		t.Errorf("text %q, want %q", got, m.Text)
	}
	jobs := f.waitJobs(t)
	if len(jobs) != 1 || jobs[0].State != "completed" || jobs[0].Attempt != 2 || !strings.Contains(jobs[0].Errors, "451") {
		t.Fatalf("jobs %+v, want one completed at the second attempt after a 451", jobs)
	}
	if !strings.Contains(f.log.String(), `"msg":"mail not sent; will retry"`) {
		t.Errorf("the retry is not logged:\n%s", f.log)
	}
}

// TestDeliverPermanentRefusalIsNotRetried: a 550 to the recipient cancels
// the job at once; the other mail of the transaction is delivered.
func TestDeliverPermanentRefusalIsNotRetried(t *testing.T) {
	t.Parallel()
	srv := newSMTPServer(t)
	srv.rcpt = func(to string) error {
		if to == "gone@example.com" {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
		}
		return nil
	}
	smtpURL, err := mailer.ParseSMTPURL("smtp://" + srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	f := start(t, mailer.Config{SMTP: smtpURL})
	gone := notify.Mail{Kind: "test_mail", To: "gone@example.com", Subject: "Hi", Text: "Body", Language: "en"}
	here := gone
	here.To = "here@example.com"
	f.enqueue(t, gone, here)
	if r := srv.next(t); r.to[0] != "here@example.com" {
		t.Errorf("delivered to %v", r.to)
	}
	jobs := f.waitJobs(t)
	if len(jobs) != 2 || jobs[0].State != "cancelled" || jobs[0].Attempt != 1 || !strings.Contains(jobs[0].Errors, "550") ||
		jobs[1].State != "completed" {
		t.Fatalf("jobs %+v, want the refused one cancelled at its first attempt, the other completed", jobs)
	}
}

// TestDeliverAuthenticates: the user and password of SMTP_URL, percent-
// encoded, log in over TLS (smtps://, or STARTTLS), and are never sent in
// the clear: without TLS the mail is not sent, retried, then discarded.
func TestDeliverAuthenticates(t *testing.T) {
	t.Parallel()
	serverTLS, clientTLS := selfSigned(t)
	for name, tc := range map[string]struct {
		scheme, query string
		implicit      bool
		delivered     bool
	}{
		"SMTPS":              {"smtps", "", true, true},
		"STARTTLS":           {"smtp", "?starttls=mandatory", false, true},
		"ErrPasswordInClear": {"smtp", "?starttls=none", false, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := listenSMTP(t, serverTLS, tc.implicit)
			srv.user, srv.password = "shop@market", "päss:wörd"
			smtpURL, err := mailer.ParseSMTPURL(tc.scheme + "://shop%40market:p%C3%A4ss%3Aw%C3%B6rd@" + srv.addr + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			f := start(t, mailer.Config{SMTP: smtpURL.WithTLSConfig(clientTLS)})
			f.enqueue(t, notify.Mail{Kind: "test_mail", To: "a@example.com", Subject: "Hi", Text: "Body", Language: "en"})
			jobs := f.waitJobs(t)
			if !tc.delivered {
				if jobs[0].State != "discarded" || jobs[0].Attempt != persistence.MailMaxAttempts || len(srv.received) != 0 {
					t.Errorf("jobs %+v, %d mails received; want nothing sent and the job discarded", jobs, len(srv.received))
				}
				return
			}
			if r := srv.next(t); r.to[0] != "a@example.com" || !r.tls {
				t.Errorf("delivered to %v, over TLS %v", r.to, r.tls)
			}
			if jobs[0].State != "completed" || jobs[0].Attempt != 1 {
				t.Errorf("jobs %+v", jobs)
			}
		})
	}
}
