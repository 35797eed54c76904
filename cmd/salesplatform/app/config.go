package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/mailer"
	"salesplatform/persistence/webhookclient"
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
	// WebhookAllowedNetworks are the networks webhook endpoints may reach
	// although private or local, over http too (WEBHOOK_ALLOWED_NETWORKS).
	WebhookAllowedNetworks []netip.Prefix
	// WebhookTimeout bounds one attempt of a webhook delivery
	// (WEBHOOK_TIMEOUT).
	WebhookTimeout time.Duration
	// WebhookRetrySchedule is the delay before each attempt of a
	// delivery, the first's none (WEBHOOK_RETRY_SCHEDULE gives the
	// others).
	WebhookRetrySchedule []time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (TRUSTED_PROXIES): login throttling counts per client.
	TrustedProxies middleware.ClientIPs
	// S3 is the bucket media are kept in; with no endpoint they are files
	// under DataDir/media.
	S3 blobstore.S3Config
	// LoaderWait overrides the graph's loader window: not a setting, for
	// tests that prove a query waits on none (they set it to hours).
	LoaderWait time.Duration
	// NoGraphFastPath leaves the graph's every field to gqlgen's executor:
	// not a setting, for the test that compares the fast path's answers
	// with gqlgen's.
	NoGraphFastPath bool
	// PasswordHashing is argon2id's cost for new password hashes (and the
	// dummy hash that hides unknown usernames); a stored hash keeps its own.
	PasswordHashing *argon2id.Params
	// SMTP is the server the outbox's mails go through (SMTP_URL); nil
	// logs them instead.
	SMTP *mailer.SMTP
	// MailFrom is the mails' sender (MAIL_FROM); empty is no-reply@ the
	// host of PublicBaseURL, set by serve.
	MailFrom string

	blobs domain.BlobStore // opened by serve (openBlobStore)
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
	// webhookMetrics counts the webhook deliveries, once serve started them.
	webhookMetrics prometheus.Collector
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
	cfg.WebhookTimeout = webhookclient.DefaultTimeout
	cfg.WebhookRetrySchedule = webhookclient.RetrySchedule

	b := &binder{fs: fs}
	if groups&groupDatabase != 0 {
		b.database(cfg)
	}
	if groups&(groupDatabase|groupMedia) != 0 {
		fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "directory of the private PostgreSQL and of media files (env DATA_DIR)")
	}
	if groups&groupServer != 0 {
		b.server(cfg)
		b.serverLimits(cfg)
		b.webhooks(cfg)
	}
	if groups&groupPasswords != 0 {
		b.passwords(cfg)
	}
	if groups&groupPublicURL != 0 {
		b.publicURL(cfg)
	}
	if groups&groupMedia != 0 {
		b.media(cfg)
	}
	if groups&groupMail != 0 {
		b.mail(cfg)
	}
	level := "info"
	b.setting("log-level", "LOG_LEVEL", &level, "debug, info, warn or error (env LOG_LEVEL, default info)", func() error {
		if err := cfg.LogLevel.UnmarshalText([]byte(level)); err != nil {
			return fmt.Errorf("LOG_LEVEL: %q is not debug, info, warn or error", level)
		}
		return nil
	})
	// Checked after fs.Parse, so that values from the environment are checked too.
	cfg.finish = func() error {
		for _, check := range b.checks {
			if err := check(); err != nil {
				return err
			}
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
