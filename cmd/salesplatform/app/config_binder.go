package app

import (
	"errors"
	"flag"
	"fmt"
	"net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"salesplatform/domain/cart"
	"salesplatform/domain/network"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/mailer"
	"salesplatform/persistence/webhookclient"
	"salesplatform/rest/middleware"
)

// binder declares settings on a flag set, each defaulting to its
// environment variable, with the checks that read them once the flags
// are parsed, in the order they were declared.
type binder struct {
	fs     *flag.FlagSet
	checks []func() error
}

// setting declares --name, whose text (env, else *value) check reads.
func (b *binder) setting(name, env string, value *string, usage string, check func() error) {
	*value = envOr(env, *value)
	b.fs.Func(name, usage, func(s string) error {
		*value = s
		return nil
	})
	b.checks = append(b.checks, check)
}

// duration declares a duration setting; valid tells an acceptable one,
// want how the refusal describes it.
func (b *binder) duration(name, env string, into *time.Duration, usage, want string, valid func(time.Duration) bool) {
	text := into.String()
	b.setting(name, env, &text, usage, func() error {
		d, err := time.ParseDuration(text)
		if err != nil || !valid(d) {
			return fmt.Errorf("%s: %q is not %s", env, text, want)
		}
		*into = d
		return nil
	})
}

// integer declares an integer setting of at least min.
func (b *binder) integer(name, env string, into *int, min int, usage, want string) {
	text := strconv.Itoa(*into)
	b.setting(name, env, &text, usage, func() error {
		n, err := strconv.Atoi(text)
		if err != nil || n < min {
			return fmt.Errorf("%s: %q is not %s", env, text, want)
		}
		*into = n
		return nil
	})
}

// boolean declares a boolean setting, false by default.
func (b *binder) boolean(name, env string, into *bool, usage string) {
	text := envOr(env, "false")
	b.fs.BoolFunc(name, usage, func(s string) error {
		text = s
		return nil
	})
	b.checks = append(b.checks, func() (err error) {
		if *into, err = strconv.ParseBool(text); err != nil {
			return fmt.Errorf("%s: %q is not true or false", env, text)
		}
		return nil
	})
}

func (b *binder) database(cfg *Config) {
	b.fs.StringVar(&cfg.DatabaseURL, "database-url", os.Getenv("DATABASE_URL"),
		"PostgreSQL URL (env DATABASE_URL); empty starts a private PostgreSQL in --data-dir")
	b.integer("db-max-conns", "DB_MAX_CONNS", &cfg.DBMaxConns, 1,
		"PostgreSQL connections in the pool (env DB_MAX_CONNS, default "+strconv.Itoa(persistence.DefaultMaxConns)+")", "a positive number")
}

// server declares what the server and its jobs run with.
func (b *binder) server(cfg *Config) {
	b.fs.StringVar(&cfg.RedisURL, "redis-url", os.Getenv("REDIS_URL"),
		"Redis URL for carts and client throttles shared by several instances (env REDIS_URL); empty keeps them in process")
	b.fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address (env ADDR)")
	b.duration("cart-ttl", "CART_TTL", &cfg.CartTTL,
		"cart lifetime after its last modification (env CART_TTL, default "+cart.DefaultCartTTL.String()+")",
		"a positive duration such as 2h or 90s", func(d time.Duration) bool { return d > 0 })
	b.duration("hold-ttl", "HOLD_TTL", &cfg.HoldTTL,
		"how long a network giftcard hold lasts when its request names no expires_in (env HOLD_TTL, default "+network.DefaultHoldTTL.String()+", at most "+network.MaxHoldTTL.String()+")",
		"a duration from 1m to "+network.MaxHoldTTL.String(), func(d time.Duration) bool { return d >= time.Minute && d <= network.MaxHoldTTL })
	b.duration("payout-interval", "PAYOUT_INTERVAL", &cfg.PayoutInterval,
		"how often the payouts job builds the payout requests of the periods that closed (env PAYOUT_INTERVAL, default "+defaultPayoutInterval.String()+", at least 1m)",
		"a duration of at least 1m", func(d time.Duration) bool { return d >= time.Minute })
	b.boolean("dev-mode", "DEV_MODE", &cfg.DevMode,
		"development mode: carts' return_url may name localhost, *.localhost and loopback addresses, over http too (env DEV_MODE, default false; never in production)")
}

// serverLimits declares the bounds of connections, shutdown and who may
// call from where.
func (b *binder) serverLimits(cfg *Config) {
	b.integer("max-conns", "MAX_CONNS", &cfg.MaxConns, 1,
		"HTTP connections served at once; more wait to be accepted (env MAX_CONNS, default "+strconv.Itoa(defaultMaxConns)+")", "a positive number")
	b.integer("max-conns-per-ip", "MAX_CONNS_PER_IP", &cfg.MaxConnsPerIP, 0,
		"HTTP connections of one client address (the TCP peer; an IPv6 /64) at once; more are reset at accept; the --trusted-proxies are not capped; 0: no cap (env MAX_CONNS_PER_IP, default "+strconv.Itoa(defaultMaxConnsPerIP)+")",
		"a number (0: no cap)")
	b.duration("drain-delay", "DRAIN_DELAY", &cfg.DrainDelay,
		"how long after SIGTERM the server keeps serving while /readyz answers 503, before it stops accepting connections: a load balancer's probe interval (env DRAIN_DELAY, default 0s)",
		"a duration such as 5s", func(d time.Duration) bool { return d >= 0 })
	b.duration("shutdown-grace", "SHUTDOWN_GRACE", &cfg.ShutdownGrace,
		"how long in-flight requests may finish after SIGTERM (env SHUTDOWN_GRACE, default "+defaultShutdownGrace.String()+")",
		"a duration such as 15s", func(d time.Duration) bool { return d >= 0 })
	origins := ""
	b.setting("cors-origins", "CORS_ORIGINS", &origins,
		"comma-separated origins (https://front.example.com) whose browsers may call /graphql and the public API, besides partners' sites (env CORS_ORIGINS)",
		func() (err error) {
			cfg.CORSOrigins, err = parseOrigins(origins)
			return err
		})
	proxies := ""
	b.setting("trusted-proxies", "TRUSTED_PROXIES", &proxies,
		"comma-separated addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For names the client, for login throttling (env TRUSTED_PROXIES; default none: the peer is the client)",
		func() (err error) {
			if cfg.TrustedProxies, err = middleware.ParseTrustedProxies(proxies); err != nil {
				return fmt.Errorf("TRUSTED_PROXIES: %w", err)
			}
			return nil
		})
}

func (b *binder) passwords(cfg *Config) {
	mib := strconv.Itoa(defaultHashMemoryMiB)
	b.setting("password-hash-memory", "PASSWORD_HASH_MEMORY", &mib,
		"argon2id memory per password hash in MiB (env PASSWORD_HASH_MEMORY, default "+strconv.Itoa(defaultHashMemoryMiB)+
			"); less makes stored passwords cheaper to guess offline: for tests and development only",
		func() error {
			n, err := strconv.Atoi(mib)
			if err != nil || n < 1 || n > maxHashMemoryMiB {
				return fmt.Errorf("PASSWORD_HASH_MEMORY: %q is not a number of MiB from 1 to %d", mib, maxHashMemoryMiB)
			}
			cfg.PasswordHashing = passwordHashing(n)
			return nil
		})
}

func (b *binder) publicURL(cfg *Config) {
	b.fs.StringVar(&cfg.PublicBaseURL, "public-base-url", os.Getenv("PUBLIC_BASE_URL"),
		"public address of this service, for funnel URLs of partners without a site domain (env PUBLIC_BASE_URL; default http:// and the listening address)")
	b.checks = append(b.checks, func() error {
		if cfg.PublicBaseURL == "" {
			return nil // derived from the address served on
		}
		if u, err := url.Parse(cfg.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("PUBLIC_BASE_URL: %q is not an http(s) URL", cfg.PublicBaseURL)
		}
		return nil
	})
}

func (b *binder) media(cfg *Config) {
	b.fs.StringVar(&cfg.S3.Endpoint, "s3-endpoint", os.Getenv("S3_ENDPOINT"),
		"host[:port] of an S3-compatible service for media, shared by several instances (env S3_ENDPOINT); empty keeps media under --data-dir")
	b.fs.StringVar(&cfg.S3.Bucket, "s3-bucket", os.Getenv("S3_BUCKET"), "bucket of the media, which must exist (env S3_BUCKET)")
	b.fs.StringVar(&cfg.S3.AccessKeyID, "s3-access-key-id", os.Getenv("S3_ACCESS_KEY_ID"), "S3 access key id (env S3_ACCESS_KEY_ID)")
	b.fs.StringVar(&cfg.S3.SecretAccessKey, "s3-secret-access-key", os.Getenv("S3_SECRET_ACCESS_KEY"), "S3 secret access key (env S3_SECRET_ACCESS_KEY)")
	b.fs.StringVar(&cfg.S3.Region, "s3-region", os.Getenv("S3_REGION"), "S3 region (env S3_REGION); empty lets the service tell")
	b.boolean("s3-insecure", "S3_INSECURE", &cfg.S3.Insecure, "talk to S3 over plain HTTP (env S3_INSECURE, default false)")
	b.checks = append(b.checks, func() error {
		if (cfg.S3.Endpoint == "") != (cfg.S3.Bucket == "") {
			return errors.New("S3_ENDPOINT and S3_BUCKET are set together or not at all")
		}
		return nil
	})
}

func (b *binder) mail(cfg *Config) {
	smtpURL := ""
	b.setting("smtp-url", "SMTP_URL", &smtpURL,
		"SMTP server of the mails: smtp://user:password@host:587 (STARTTLS; ?starttls=opportunistic or none) or smtps://user:password@host:465 (env SMTP_URL); empty logs each mail instead of sending it",
		func() (err error) {
			if smtpURL != "" {
				if cfg.SMTP, err = mailer.ParseSMTPURL(smtpURL); err != nil {
					return fmt.Errorf("SMTP_URL: %w", err)
				}
			}
			return nil
		})
	b.fs.StringVar(&cfg.MailFrom, "mail-from", os.Getenv("MAIL_FROM"),
		"sender of the mails, address or \"Name <address>\" (env MAIL_FROM; default no-reply@ the host of --public-base-url)")
	b.checks = append(b.checks, func() error {
		if cfg.MailFrom != "" {
			if _, err := mail.ParseAddress(cfg.MailFrom); err != nil {
				return fmt.Errorf("MAIL_FROM: %q is not an address such as no-reply@example.com or \"Shop <no-reply@example.com>\"", cfg.MailFrom)
			}
		}
		return nil
	})
}

func (b *binder) webhooks(cfg *Config) {
	networks := ""
	b.setting("webhook-allowed-networks", "WEBHOOK_ALLOWED_NETWORKS", &networks,
		"comma-separated CIDRs that webhook endpoints may reach although private or local, over http too (env WEBHOOK_ALLOWED_NETWORKS, default none)",
		func() (err error) {
			if cfg.WebhookAllowedNetworks, err = webhooks.ParseAllowedNetworks(networks); err != nil {
				return fmt.Errorf("WEBHOOK_ALLOWED_NETWORKS: %w", err)
			}
			return nil
		})
	b.duration("webhook-timeout", "WEBHOOK_TIMEOUT", &cfg.WebhookTimeout,
		"how long one attempt of a webhook delivery may take, from the look-up of the endpoint's host to its answer (env WEBHOOK_TIMEOUT, default "+
			webhookclient.DefaultTimeout.String()+", 1s to 1m)",
		"a duration from 1s to 1m", func(d time.Duration) bool { return d >= time.Second && d <= time.Minute })
	schedule := formatSchedule(webhookclient.RetrySchedule[1:])
	b.setting("webhook-retry-schedule", "WEBHOOK_RETRY_SCHEDULE", &schedule,
		"comma-separated delays before each retry of a failed webhook delivery (env WEBHOOK_RETRY_SCHEDULE, default "+schedule+
			"; their number is the retries, at most "+strconv.Itoa(maxRetries)+")",
		func() (err error) {
			if cfg.WebhookRetrySchedule, err = parseSchedule(schedule); err != nil {
				return fmt.Errorf("WEBHOOK_RETRY_SCHEDULE: %w", err)
			}
			return nil
		})
}

// maxRetries bounds WEBHOOK_RETRY_SCHEDULE below River's attempts of a
// delivery job (persistence.WebhookArgs).
const maxRetries = 50

// parseSchedule reads WEBHOOK_RETRY_SCHEDULE, the retries' delays, as the
// delivery schedule: the first attempt at once, then one per delay.
func parseSchedule(list string) ([]time.Duration, error) {
	out := []time.Duration{0}
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		d, err := time.ParseDuration(item)
		if err != nil || d < time.Millisecond || d > 7*24*time.Hour {
			return nil, fmt.Errorf("%q is not a duration from 1ms to 168h such as 5s or 2h", item)
		}
		out = append(out, d)
	}
	if len(out)-1 > maxRetries {
		return nil, fmt.Errorf("%d retries, at most %d", len(out)-1, maxRetries)
	}
	return out, nil
}

// formatSchedule writes delays as WEBHOOK_RETRY_SCHEDULE reads them.
func formatSchedule(delays []time.Duration) string {
	s := make([]string, len(delays))
	for i, d := range delays {
		s[i] = d.String()
	}
	return strings.Join(s, ",")
}
