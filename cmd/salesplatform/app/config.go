package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/media"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/mailer"
	"salesplatform/rest/middleware"
)

// defaultMaxConns caps the HTTP connections served at once: far more than
// the database pool serves requests, few enough that file descriptors and
// per-connection buffers stay bounded.
const defaultMaxConns = 1024

// defaultShutdownGrace is how long in-flight requests may finish after a
// signal.
const defaultShutdownGrace = 15 * time.Second

// Password hashing memory: argon2id's recommended 64 MiB by default.
const (
	defaultHashMemoryMiB = 64
	maxHashMemoryMiB     = 4096
)

// passwordHashing is argon2id's recommended parameters with mib MiB of
// memory.
func passwordHashing(mib int) *argon2id.Params {
	p := *argon2id.DefaultParams
	p.Memory = uint32(mib) * 1024
	return &p
}

// Config is the service's configuration: each setting is an environment
// variable that a flag of the same name in lower case overrides.
type Config struct {
	DatabaseURL   string
	RedisURL      string
	Addr          string
	PublicBaseURL string
	CartTTL       time.Duration
	HoldTTL       time.Duration // a network giftcard hold's life when its request names none
	// PayoutInterval is how often the payouts job looks for closed periods.
	PayoutInterval time.Duration
	DataDir        string
	LogLevel       slog.Level
	NoMigrate      bool
	// DevMode is development mode (DEV_MODE): carts' return_url may name
	// local hosts, over http too. Never in production.
	DevMode bool
	// DBMaxConns sizes the PostgreSQL pool; MaxConns caps the HTTP
	// connections served at once (more wait to be accepted), and
	// MaxConnsPerIP those of one client address (more are reset; 0: no
	// cap).
	DBMaxConns    int
	MaxConns      int
	MaxConnsPerIP int
	// ShutdownGrace is how long in-flight requests may finish after a
	// signal before their connections are closed.
	ShutdownGrace time.Duration
	// DrainDelay is how long, after a signal, the server keeps accepting
	// requests while /readyz answers 503, so that a load balancer probing
	// it stops sending before the listener closes (DRAIN_DELAY).
	DrainDelay time.Duration
	// CORSOrigins are the origins, besides partners' sites, whose browsers
	// may call the public surfaces (CORS_ORIGINS).
	CORSOrigins []string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (TRUSTED_PROXIES): login throttling counts per client.
	TrustedProxies middleware.ClientIPs
	// S3 is the bucket media are kept in; with no endpoint they are files
	// under DataDir/media.
	S3 blobstore.S3Config
	// LoaderWait overrides the graph's loader window: not a setting, for
	// tests that prove a query waits on none (they set it to hours).
	LoaderWait time.Duration
	// PasswordHashing is argon2id's cost for new password hashes (and the
	// dummy hash that hides unknown usernames); a stored hash keeps its own.
	PasswordHashing *argon2id.Params
	// SMTP is the server the outbox's mails go through (SMTP_URL); nil
	// logs them instead.
	SMTP *mailer.SMTP
	// MailFrom is the mails' sender (MAIL_FROM); empty is no-reply@ the
	// host of PublicBaseURL, set by serve.
	MailFrom string

	blobs media.BlobStore // opened by serve (openBlobStore)
	// providerDB is the simulated provider's pool (psp.PoolConns
	// connections), opened by serve; nil puts the provider on the hub's.
	providerDB *bun.DB
	// throttles keeps the client throttles' buckets when they are shared
	// (Redis, opened by serve with REDIS_URL); nil keeps them in process.
	throttles domain.ThrottleStore
	// callers caches authenticated tokens' callers when they are shared
	// (Redis, opened by serve with REDIS_URL); nil keeps them in process.
	callers  domain.CallerCache
	draining *atomic.Bool // set by serve when it stops: /readyz answers 503
	// dsn is the database's, set by openDatabase: DATABASE_URL or the
	// private cluster's (the mail workers' pool connects with it).
	dsn string
	// mailMetrics counts the mails' deliveries, once serve started them.
	mailMetrics prometheus.Collector
	// connMetrics count the listener's connections, once serve listens.
	connMetrics []prometheus.Collector

	finish func() error // validates and derives fields once flags are parsed
}

// flagGroup is a set of settings some commands take: each command binds
// only the groups it uses, so that its --help lists only its own flags and
// a bad value of a setting it ignores does not stop it.
type flagGroup uint

const (
	// groupDatabase: --database-url, --data-dir (the private cluster's
	// home), --db-max-conns.
	groupDatabase flagGroup = 1 << iota
	// groupPasswords: --password-hash-memory.
	groupPasswords
	// groupServer: --addr, --redis-url, --cart-ttl, --hold-ttl, --max-conns,
	// --max-conns-per-ip, --shutdown-grace, --cors-origins, --dev-mode.
	groupServer
	// groupPublicURL: --public-base-url.
	groupPublicURL
	// groupMedia: --s3-*.
	groupMedia
	// groupMail: --smtp-url, --mail-from.
	groupMail
)

// bindConfig declares the settings of groups on fs, defaulting to the
// environment, and --log-level, which every command takes. A setting whose
// group is not bound keeps its environment value or default unchecked.
func bindConfig(fs *flag.FlagSet, cfg *Config, groups flagGroup) {
	var checks []func() error
	cfg.Addr = envOr("ADDR", "127.0.0.1:8000")
	cfg.DataDir = envOr("DATA_DIR", "data")
	cfg.DBMaxConns = persistence.DefaultMaxConns
	cfg.CartTTL = cart.DefaultCartTTL
	cfg.HoldTTL = network.DefaultHoldTTL
	cfg.PayoutInterval = defaultPayoutInterval
	cfg.MaxConns = defaultMaxConns
	cfg.MaxConnsPerIP = defaultMaxConnsPerIP
	cfg.ShutdownGrace = defaultShutdownGrace
	cfg.PasswordHashing = passwordHashing(defaultHashMemoryMiB)

	if groups&groupDatabase != 0 {
		fs.StringVar(&cfg.DatabaseURL, "database-url", os.Getenv("DATABASE_URL"),
			"PostgreSQL URL (env DATABASE_URL); empty starts a private PostgreSQL in --data-dir")
		dbConns := envOr("DB_MAX_CONNS", strconv.Itoa(persistence.DefaultMaxConns))
		fs.Func("db-max-conns", "PostgreSQL connections in the pool (env DB_MAX_CONNS, default "+strconv.Itoa(persistence.DefaultMaxConns)+")", func(s string) error {
			dbConns = s
			return nil
		})
		checks = append(checks, func() (err error) {
			if cfg.DBMaxConns, err = strconv.Atoi(dbConns); err != nil || cfg.DBMaxConns < 1 {
				return fmt.Errorf("DB_MAX_CONNS: %q is not a positive number", dbConns)
			}
			return nil
		})
	}
	if groups&(groupDatabase|groupMedia) != 0 {
		fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "directory of the private PostgreSQL and of media files (env DATA_DIR)")
	}
	if groups&groupServer != 0 {
		fs.StringVar(&cfg.RedisURL, "redis-url", os.Getenv("REDIS_URL"),
			"Redis URL for carts and client throttles shared by several instances (env REDIS_URL); empty keeps them in process")
		fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address (env ADDR)")
		ttl := envOr("CART_TTL", cart.DefaultCartTTL.String())
		fs.Func("cart-ttl", "cart lifetime after its last modification (env CART_TTL, default "+cart.DefaultCartTTL.String()+")", func(s string) error {
			ttl = s
			return nil
		})
		holdTTL := envOr("HOLD_TTL", network.DefaultHoldTTL.String())
		fs.Func("hold-ttl", "how long a network giftcard hold lasts when its request names no expires_in (env HOLD_TTL, default "+network.DefaultHoldTTL.String()+", at most "+network.MaxHoldTTL.String()+")", func(s string) error {
			holdTTL = s
			return nil
		})
		payoutInterval := envOr("PAYOUT_INTERVAL", defaultPayoutInterval.String())
		fs.Func("payout-interval", "how often the payouts job builds the payout requests of the periods that closed (env PAYOUT_INTERVAL, default "+defaultPayoutInterval.String()+", at least 1m)", func(s string) error {
			payoutInterval = s
			return nil
		})
		conns := envOr("MAX_CONNS", strconv.Itoa(defaultMaxConns))
		fs.Func("max-conns", "HTTP connections served at once; more wait to be accepted (env MAX_CONNS, default "+strconv.Itoa(defaultMaxConns)+")", func(s string) error {
			conns = s
			return nil
		})
		connsPerIP := envOr("MAX_CONNS_PER_IP", strconv.Itoa(defaultMaxConnsPerIP))
		fs.Func("max-conns-per-ip", "HTTP connections of one client address (the TCP peer; an IPv6 /64) at once; more are reset at accept; the --trusted-proxies are not capped; 0: no cap (env MAX_CONNS_PER_IP, default "+strconv.Itoa(defaultMaxConnsPerIP)+")", func(s string) error {
			connsPerIP = s
			return nil
		})
		delay := envOr("DRAIN_DELAY", "0s")
		fs.Func("drain-delay", "how long after SIGTERM the server keeps serving while /readyz answers 503, before it stops accepting connections: a load balancer's probe interval (env DRAIN_DELAY, default 0s)", func(s string) error {
			delay = s
			return nil
		})
		grace := envOr("SHUTDOWN_GRACE", defaultShutdownGrace.String())
		fs.Func("shutdown-grace", "how long in-flight requests may finish after SIGTERM (env SHUTDOWN_GRACE, default "+defaultShutdownGrace.String()+")", func(s string) error {
			grace = s
			return nil
		})
		origins := os.Getenv("CORS_ORIGINS")
		fs.Func("cors-origins", "comma-separated origins (https://front.example.com) whose browsers may call /graphql and the public API, besides partners' sites (env CORS_ORIGINS)", func(s string) error {
			origins = s
			return nil
		})
		proxies := os.Getenv("TRUSTED_PROXIES")
		fs.Func("trusted-proxies", "comma-separated addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For names the client, for login throttling (env TRUSTED_PROXIES; default none: the peer is the client)", func(s string) error {
			proxies = s
			return nil
		})
		devMode := envOr("DEV_MODE", "false")
		fs.BoolFunc("dev-mode", "development mode: carts' return_url may name localhost, *.localhost and loopback addresses, over http too (env DEV_MODE, default false; never in production)", func(s string) error {
			devMode = s
			return nil
		})
		checks = append(checks, func() (err error) {
			if cfg.DevMode, err = strconv.ParseBool(devMode); err != nil {
				return fmt.Errorf("DEV_MODE: %q is not true or false", devMode)
			}
			return nil
		})
		checks = append(checks, func() error {
			d, err := time.ParseDuration(ttl)
			if err != nil || d <= 0 {
				return fmt.Errorf("CART_TTL: %q is not a positive duration such as 2h or 90s", ttl)
			}
			cfg.CartTTL = d
			if cfg.HoldTTL, err = time.ParseDuration(holdTTL); err != nil || cfg.HoldTTL < time.Minute || cfg.HoldTTL > network.MaxHoldTTL {
				return fmt.Errorf("HOLD_TTL: %q is not a duration from 1m to %s", holdTTL, network.MaxHoldTTL)
			}
			if cfg.PayoutInterval, err = time.ParseDuration(payoutInterval); err != nil || cfg.PayoutInterval < time.Minute {
				return fmt.Errorf("PAYOUT_INTERVAL: %q is not a duration of at least 1m", payoutInterval)
			}
			if cfg.ShutdownGrace, err = time.ParseDuration(grace); err != nil || cfg.ShutdownGrace < 0 {
				return fmt.Errorf("SHUTDOWN_GRACE: %q is not a duration such as 15s", grace)
			}
			if cfg.DrainDelay, err = time.ParseDuration(delay); err != nil || cfg.DrainDelay < 0 {
				return fmt.Errorf("DRAIN_DELAY: %q is not a duration such as 5s", delay)
			}
			if cfg.MaxConns, err = strconv.Atoi(conns); err != nil || cfg.MaxConns < 1 {
				return fmt.Errorf("MAX_CONNS: %q is not a positive number", conns)
			}
			if cfg.MaxConnsPerIP, err = strconv.Atoi(connsPerIP); err != nil || cfg.MaxConnsPerIP < 0 {
				return fmt.Errorf("MAX_CONNS_PER_IP: %q is not a number (0: no cap)", connsPerIP)
			}
			if cfg.TrustedProxies, err = middleware.ParseTrustedProxies(proxies); err != nil {
				return fmt.Errorf("TRUSTED_PROXIES: %w", err)
			}
			cfg.CORSOrigins, err = parseOrigins(origins)
			return err
		})
	}
	if groups&groupPasswords != 0 {
		hashMemory := envOr("PASSWORD_HASH_MEMORY", strconv.Itoa(defaultHashMemoryMiB))
		fs.Func("password-hash-memory", "argon2id memory per password hash in MiB (env PASSWORD_HASH_MEMORY, default "+strconv.Itoa(defaultHashMemoryMiB)+
			"); less makes stored passwords cheaper to guess offline: for tests and development only", func(s string) error {
			hashMemory = s
			return nil
		})
		checks = append(checks, func() error {
			mib, err := strconv.Atoi(hashMemory)
			if err != nil || mib < 1 || mib > maxHashMemoryMiB {
				return fmt.Errorf("PASSWORD_HASH_MEMORY: %q is not a number of MiB from 1 to %d", hashMemory, maxHashMemoryMiB)
			}
			cfg.PasswordHashing = passwordHashing(mib)
			return nil
		})
	}
	if groups&groupPublicURL != 0 {
		fs.StringVar(&cfg.PublicBaseURL, "public-base-url", os.Getenv("PUBLIC_BASE_URL"),
			"public address of this service, for funnel URLs of partners without a site domain (env PUBLIC_BASE_URL; default http:// and the listening address)")
		checks = append(checks, func() error {
			if cfg.PublicBaseURL == "" {
				return nil // derived from the address served on
			}
			if u, err := url.Parse(cfg.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("PUBLIC_BASE_URL: %q is not an http(s) URL", cfg.PublicBaseURL)
			}
			return nil
		})
	}
	if groups&groupMedia != 0 {
		fs.StringVar(&cfg.S3.Endpoint, "s3-endpoint", os.Getenv("S3_ENDPOINT"),
			"host[:port] of an S3-compatible service for media, shared by several instances (env S3_ENDPOINT); empty keeps media under --data-dir")
		fs.StringVar(&cfg.S3.Bucket, "s3-bucket", os.Getenv("S3_BUCKET"), "bucket of the media, which must exist (env S3_BUCKET)")
		fs.StringVar(&cfg.S3.AccessKeyID, "s3-access-key-id", os.Getenv("S3_ACCESS_KEY_ID"), "S3 access key id (env S3_ACCESS_KEY_ID)")
		fs.StringVar(&cfg.S3.SecretAccessKey, "s3-secret-access-key", os.Getenv("S3_SECRET_ACCESS_KEY"), "S3 secret access key (env S3_SECRET_ACCESS_KEY)")
		fs.StringVar(&cfg.S3.Region, "s3-region", os.Getenv("S3_REGION"), "S3 region (env S3_REGION); empty lets the service tell")
		insecure := envOr("S3_INSECURE", "false")
		fs.BoolFunc("s3-insecure", "talk to S3 over plain HTTP (env S3_INSECURE, default false)", func(s string) error {
			insecure = s
			return nil
		})
		checks = append(checks, func() (err error) {
			if cfg.S3.Insecure, err = strconv.ParseBool(insecure); err != nil {
				return fmt.Errorf("S3_INSECURE: %q is not true or false", insecure)
			}
			if (cfg.S3.Endpoint == "") != (cfg.S3.Bucket == "") {
				return errors.New("S3_ENDPOINT and S3_BUCKET are set together or not at all")
			}
			return nil
		})
	}
	if groups&groupMail != 0 {
		smtpURL := os.Getenv("SMTP_URL")
		fs.Func("smtp-url", "SMTP server of the mails: smtp://user:password@host:587 (STARTTLS; ?starttls=opportunistic or none) or smtps://user:password@host:465 (env SMTP_URL); empty logs each mail instead of sending it", func(s string) error {
			smtpURL = s
			return nil
		})
		fs.StringVar(&cfg.MailFrom, "mail-from", os.Getenv("MAIL_FROM"),
			"sender of the mails, address or \"Name <address>\" (env MAIL_FROM; default no-reply@ the host of --public-base-url)")
		checks = append(checks, func() (err error) {
			if smtpURL != "" {
				if cfg.SMTP, err = mailer.ParseSMTPURL(smtpURL); err != nil {
					return fmt.Errorf("SMTP_URL: %w", err)
				}
			}
			if cfg.MailFrom != "" {
				if _, err := mail.ParseAddress(cfg.MailFrom); err != nil {
					return fmt.Errorf("MAIL_FROM: %q is not an address such as no-reply@example.com or \"Shop <no-reply@example.com>\"", cfg.MailFrom)
				}
			}
			return nil
		})
	}
	level := envOr("LOG_LEVEL", "info")
	fs.Func("log-level", "debug, info, warn or error (env LOG_LEVEL, default info)", func(s string) error {
		level = s
		return nil
	})
	// Checked after fs.Parse, so that values from the environment are checked too.
	cfg.finish = func() error {
		for _, check := range checks {
			if err := check(); err != nil {
				return err
			}
		}
		if err := cfg.LogLevel.UnmarshalText([]byte(level)); err != nil {
			return fmt.Errorf("LOG_LEVEL: %q is not debug, info, warn or error", level)
		}
		return nil
	}
}

// parseOrigins reads CORS_ORIGINS: comma-separated origins, each a scheme
// (http or https), a host and an optional port, with no path.
func parseOrigins(list string) ([]string, error) {
	var origins []string
	for o := range strings.SplitSeq(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "?") {
			return nil, fmt.Errorf("CORS_ORIGINS: %q is not an origin such as https://front.example.com (scheme, host and port, no path)", o)
		}
		origins = append(origins, strings.ToLower(o))
	}
	return origins, nil
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// parseFlags parses args into fs and completes cfg. -h (--help) prints
// usage, a line on what the command does and fs's flags on stdout and is
// reported as errHelp; a bad flag is reported on stderr as errUsage.
func parseFlags(fs *flag.FlagSet, cfg *Config, args []string, stdout, stderr io.Writer, usage string) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(fs, stdout, usage)
			return errHelp
		}
		fmt.Fprintf(stderr, "Run \"salesplatform %s --help\" for its flags.\n", fs.Name())
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return errUsage
	}
	return cfg.finish()
}

// printHelp writes a command's usage and flags to w.
func printHelp(fs *flag.FlagSet, w io.Writer, usage string) {
	fmt.Fprintf(w, "%s\n\nflags (each also read from the environment variable named in its text):\n", usage)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

var (
	errHelp  = errors.New("help requested")
	errUsage = errors.New("bad usage")
)

func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}
