package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"
)

// sendTimeout bounds a connection to the SMTP server and each of its
// commands.
const sendTimeout = 30 * time.Second

// TLS modes of smtp:// (the starttls parameter).
const (
	StartTLSMandatory     = "mandatory"     // STARTTLS or no delivery
	StartTLSOpportunistic = "opportunistic" // STARTTLS when the server offers it
	StartTLSNone          = "none"          // plain text
)

// SMTP is the server mails are sent through, read from SMTP_URL.
type SMTP struct {
	Host               string
	Port               int
	Username, Password string // no authentication without a username
	ImplicitTLS        bool   // smtps://: TLS from the first byte
	StartTLS           string // smtp:// only: one of the StartTLS modes
	redacted           string
	tlsConfig          *tls.Config // nil: the system's roots, for Host
}

// ParseSMTPURL reads an SMTP server's URL:
//
//	smtp://[user:password@]host[:port][?starttls=mandatory|opportunistic|none]
//	smtps://[user:password@]host[:port]
//
// smtp:// is port 587 and STARTTLS, mandatory unless the host is this
// machine (localhost, a loopback address), where it is used when offered;
// smtps:// is port 465, TLS from the start. The user and password are
// percent-encoded; errors never show the password.
func ParseSMTPURL(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("not a URL") // url's error would quote the password
	}
	s := &SMTP{Host: u.Hostname(), redacted: u.Redacted()}
	switch u.Scheme {
	case "smtp":
		s.Port = 587
		s.StartTLS = StartTLSMandatory
		if isLoopback(s.Host) {
			s.StartTLS = StartTLSOpportunistic
		}
	case "smtps":
		s.Port, s.ImplicitTLS = 465, true
	default:
		return nil, fmt.Errorf("%s: the scheme is smtp or smtps", s.redacted)
	}
	if s.Host == "" {
		return nil, fmt.Errorf("%s: no host", s.redacted)
	}
	if p := u.Port(); p != "" {
		if s.Port, err = strconv.Atoi(p); err != nil || s.Port < 1 || s.Port > 65535 {
			return nil, fmt.Errorf("%s: port %q is not 1 to 65535", s.redacted, p)
		}
	}
	if (u.Path != "" && u.Path != "/") || u.Fragment != "" || u.Opaque != "" {
		return nil, fmt.Errorf("%s: an SMTP URL has no path", s.redacted)
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	for key, values := range u.Query() {
		if key != "starttls" || s.ImplicitTLS {
			return nil, fmt.Errorf("%s: unknown parameter %q (smtp:// takes starttls only, smtps:// none)", s.redacted, key)
		}
		switch v := values[len(values)-1]; v {
		case StartTLSMandatory, StartTLSOpportunistic, StartTLSNone:
			s.StartTLS = v
		default:
			return nil, fmt.Errorf("%s: starttls=%q is not mandatory, opportunistic or none", s.redacted, v)
		}
	}
	return s, nil
}

// String is the URL without its password, for logs.
func (s *SMTP) String() string { return s.redacted }

func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// send delivers msg on a connection of its own.
func (s *SMTP) send(ctx context.Context, msg *mail.Msg) error {
	opts := []mail.Option{mail.WithPort(s.Port), mail.WithTimeout(sendTimeout)}
	switch {
	case s.ImplicitTLS:
		opts = append(opts, mail.WithSSL())
	case s.StartTLS == StartTLSOpportunistic:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	case s.StartTLS == StartTLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if s.tlsConfig != nil {
		opts = append(opts, mail.WithTLSConfig(s.tlsConfig))
	}
	if s.Username != "" {
		// The strongest mechanism the server offers; over a connection
		// without TLS, only those that do not send the password (SCRAM,
		// CRAM-MD5).
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(s.Username), mail.WithPassword(s.Password))
	}
	c, err := mail.NewClient(s.Host, opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, msg)
}

// permanent reports an SMTP server's final refusal of this mail: a 5xx
// reply to its recipient or its content. A 5xx elsewhere (authentication,
// the sender) is a fault of the configuration, which a fix cures: those
// mails are retried, as is every 4xx and network failure.
func permanent(err error) bool {
	var se *mail.SendError
	if !errors.As(err, &se) {
		return false
	}
	switch se.Reason {
	case mail.ErrSMTPRcptTo, mail.ErrSMTPData, mail.ErrSMTPDataClose:
		return !se.IsTemp() && se.ErrorCode() >= 500
	}
	return false
}

// domainOf is the domain of an address, for Message-IDs.
func domainOf(address string) string {
	if i := strings.LastIndexByte(address, '@'); i >= 0 {
		return address[i+1:]
	}
	return "localhost"
}
