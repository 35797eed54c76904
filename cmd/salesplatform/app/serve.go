package app

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/cart"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/ecommerce"
	"salesplatform/domain/gifts"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/media"
	"salesplatform/domain/mpcart"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/services"
	"salesplatform/domain/vouchers"
	"salesplatform/domain/webhooks"
	"salesplatform/domain/widgets"
	"salesplatform/graph"
	"salesplatform/graph/playground"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/callercache"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/mailer"
	"salesplatform/persistence/psp"
	"salesplatform/persistence/throttlestore"
	"salesplatform/persistence/webhookclient"
	"salesplatform/persistence/webhookdelivery"
	"salesplatform/rest"
	"salesplatform/rest/middleware"
	"salesplatform/rest/pagesecurity"
)

const serveUsage = `usage: salesplatform [serve] [flags]

Serves REST and GraphQL (and /healthz, /readyz, /metrics), delivers the
queued mails (over --smtp-url, or to the log) and webhooks, until SIGINT or
SIGTERM, then drains: /readyz answers 503, the listener closes, requests in
flight and mails and webhooks being sent finish (up to --shutdown-grace),
and the private PostgreSQL stops.`

// DefaultGCPercent is the garbage collector's target while serving, unless
// GOGC is set: a request allocates much short-lived memory (gqlgen's field
// contexts, scanned rows) on a small live heap, and collecting when the
// heap has grown by 400% rather than Go's 100% cut the collector's share
// of a loaded server's CPU (docs/PERFORMANCE.md) for a few tens of MB.
const DefaultGCPercent = 400

// serve is `salesplatform serve`: it migrates (unless --no-migrate), serves
// until ctx ends, then drains requests and stops the private PostgreSQL.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer, h Hooks) error {
	var cfg Config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	bindConfig(fs, &cfg, groupDatabase|groupPasswords|groupServer|groupPublicURL|groupMedia|groupMail)
	fs.BoolVar(&cfg.NoMigrate, "no-migrate", false, "do not apply pending migrations at start")
	if err := parseFlags(fs, &cfg, args, stdout, stderr, serveUsage); err != nil {
		return err
	}
	log := NewLogger(stderr, cfg.LogLevel)
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(DefaultGCPercent)
	}

	db, closeDB, err := openDatabase(ctx, &cfg, log, false)
	if err != nil {
		return err
	}
	defer closeDB()
	if !cfg.NoMigrate {
		if err := persistence.Migrate(ctx, db); err != nil {
			return err
		}
	}
	// The simulated provider stands for another system: its state is on a
	// pool of its own, so that the hub's pool never waits for it.
	if cfg.providerDB, err = persistence.Open(ctx, cfg.dsn); err != nil {
		return err
	}
	persistence.SetMaxConns(cfg.providerDB.DB, psp.PoolConns)
	defer cfg.providerDB.Close()
	carts, closeCarts, err := openCartStore(ctx, &cfg)
	if err != nil {
		return err
	}
	defer closeCarts()

	if cfg.blobs, err = openBlobStore(ctx, &cfg); err != nil {
		return err
	}

	ln, err := listen(&cfg)
	if err != nil {
		return err
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://" + ln.Addr().String()
	}
	if cfg.MailFrom == "" {
		cfg.MailFrom = defaultMailFrom(cfg.PublicBaseURL)
	}
	stopQueues, err := startQueues(ctx, db, &cfg, log)
	if err != nil {
		ln.Close()
		return err
	}
	// Before the database closes (a defer registered earlier runs later).
	defer func() { _ = stopQueues(context.WithoutCancel(ctx)) }()
	stopJobs, err := startJobs(ctx, db, carts, &cfg, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopJobs()
	cfg.draining = new(atomic.Bool)
	handler := NewHandler(db, carts, &cfg, log)
	if h.Handler != nil {
		handler = h.Handler(handler)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       idleTimeout,
		ConnState:         ln.ConnState,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("listening", "addr", ln.Addr().String(), "public_base_url", cfg.PublicBaseURL)
	if h.Listening != nil {
		h.Listening(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	return drain(ctx, srv, errc, stopQueues, &cfg, log, h)
}

// listen opens the server's listener, capped: connections past the cap
// wait in the kernel's backlog until one closes, so a flood of
// connections cannot exhaust descriptors; one address cannot hold them
// all, nor can idle ones keep others out.
func listen(cfg *Config) (*connLimiter, error) {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, err
	}
	limiter := newConnLimiter(ln, cfg.MaxConns, cfg.MaxConnsPerIP, cfg.TrustedProxies.Trusts)
	cfg.connMetrics = limiter.collectors()
	return limiter, nil
}

// startJobs starts the server's background jobs, the sweep of lapsed holds,
// the lapse of pending orders and the payouts, and returns stop, which
// stops them and waits for them.
func startJobs(ctx context.Context, db *bun.DB, carts cart.CartStore, cfg *Config, log *slog.Logger) (stop func(), err error) {
	// The sweep of lapsed holds needs no idempotency keys: it is no
	// client's request.
	sweepCtx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		sweepHolds(sweepCtx, network.NewGiftcardService(persistence.NewUnitOfWork(db, persistence.NetworkStores), nil),
			holdSweepInterval, log)
	}()
	// The lapse of pending orders: the checkout's own work.
	lapsed := make(chan struct{})
	go func() {
		defer close(lapsed)
		partners := persistence.NewDatabase(db).Stores().Partners
		hub := payments.NewPaymentService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), nil,
			psp.NewSim(cfg.providerDB, cfg.PublicBaseURL))
		lapseOrders(sweepCtx, newCheckout(db, cart.NewService(carts, partners, cfg.CartTTL, cfg.PublicBaseURL), carts, cfg,
			partners, hub, network.NewGiftcardService(persistence.NewUnitOfWork(db, persistence.NetworkStores), nil)),
			orderLapseInterval, log)
	}()
	stopSweepAndWait := func() { stopSweep(); <-swept; <-lapsed }
	// The payouts job: its builds are no client's request either. Its
	// advisory lock holds a connection for the whole run: one of its own,
	// so that the run's transactions, on the hub's pool, never wait for
	// a connection while it holds one.
	lockDB, err := persistence.Open(ctx, cfg.dsn)
	if err != nil {
		stopSweepAndWait()
		return nil, err
	}
	persistence.SetMaxConns(lockDB.DB, 1)
	payoutsCtx, stopPayouts := context.WithCancel(ctx)
	payoutsDone := make(chan struct{})
	go func() {
		defer close(payoutsDone)
		uow := persistence.NewUnitOfWork(db, persistence.PaymentsStores)
		runPayouts(payoutsCtx, lockDB, payments.NewPayoutService(uow, nil),
			payments.NewPaymentService(uow, nil, psp.NewSim(cfg.providerDB, cfg.PublicBaseURL)), cfg.PayoutInterval, log)
	}()
	return func() {
		stopPayouts()
		<-payoutsDone
		lockDB.Close()
		stopSweepAndWait()
	}, nil
}

// drain stops the server once ctx ends. The drain: /readyz answers 503
// from now on, so that a load balancer sends no more; responses carry
// Connection: close and idle connections are closed
// (SetKeepAlivesEnabled); after the drain delay, in which requests are
// still accepted while the balancer's probe notices, Shutdown closes the
// listener and waits for the requests in flight, up to the grace. The
// database and the cart store close after it returns (serve's defers).
func drain(ctx context.Context, srv *http.Server, errc chan error, stopQueues func(context.Context) error, cfg *Config, log *slog.Logger, h Hooks) error {
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", cfg.ShutdownGrace.String())
	cfg.draining.Store(true)
	srv.SetKeepAlivesEnabled(false)
	if h.Draining != nil {
		h.Draining()
	}
	time.Sleep(cfg.DrainDelay)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownGrace)
	defer cancel()
	// The mails and webhooks being sent finish beside the requests,
	// within the same grace; those a request queues meanwhile wait in the
	// database for the next worker.
	mailsStopped := make(chan error, 1)
	go func() { mailsStopped <- stopQueues(sctx) }()
	if err := srv.Shutdown(sctx); err != nil {
		// Requests still running after the grace are cut off: the
		// process was asked to stop, and stopping is not a failure.
		log.Warn("requests still running after the shutdown grace; closing their connections",
			"grace", cfg.ShutdownGrace.String(), "error", err.Error())
		_ = srv.Close()
	}
	if err := <-mailsStopped; err != nil {
		log.Warn("mails or webhooks still being sent after the shutdown grace", "error", err.Error())
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("requests drained; stopping")
	return nil
}

// startQueues starts the job queues' workers, the mails' and the
// webhooks', and returns stop, which stops both at once, waiting for what
// they are sending until ctx ends.
func startQueues(ctx context.Context, db *bun.DB, cfg *Config, log *slog.Logger) (stop func(context.Context) error, err error) {
	stopMailer, err := startMailer(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	stopWebhooks, err := startWebhooks(ctx, db, cfg, log)
	if err != nil {
		_ = stopMailer(ctx)
		return nil, err
	}
	return func(ctx context.Context) error {
		webhooksStopped := make(chan error, 1)
		go func() { webhooksStopped <- stopWebhooks(ctx) }()
		return errors.Join(stopMailer(ctx), <-webhooksStopped)
	}, nil
}

// startWebhooks starts sending the webhook deliveries
// (persistence/webhookdelivery) on a pgx pool of their own, reading and
// settling them on db; stop is as startMailer's.
func startWebhooks(ctx context.Context, db *bun.DB, cfg *Config, log *slog.Logger) (stop func(context.Context) error, err error) {
	pool, err := persistence.OpenPgxPool(ctx, cfg.dsn, webhookdelivery.PoolConns)
	if err != nil {
		return nil, err
	}
	client := webhookclient.New(webhookclient.Config{AllowedNetworks: cfg.WebhookAllowedNetworks, Timeout: cfg.WebhookTimeout})
	d, err := webhookdelivery.Start(ctx, pool, webhookdelivery.Config{DB: db, Client: client, Timeout: cfg.WebhookTimeout,
		Schedule: cfg.WebhookRetrySchedule, Logger: log})
	if err != nil {
		pool.Close()
		return nil, err
	}
	cfg.webhookMetrics = d.Collector()
	var once sync.Once
	var stopErr error
	return func(ctx context.Context) error {
		once.Do(func() {
			stopErr = d.Stop(ctx)
			pool.Close()
		})
		return stopErr
	}, nil
}

// startMailer starts delivering the outbox's mails (persistence/mailer) on
// a pgx pool of their own, and returns stop, which stops it, waiting for
// the mails being sent until ctx ends, and closes the pool; stop may be
// called again and then does nothing.
func startMailer(ctx context.Context, cfg *Config, log *slog.Logger) (stop func(context.Context) error, err error) {
	pool, err := persistence.OpenPgxPool(ctx, cfg.dsn, mailer.PoolConns)
	if err != nil {
		return nil, err
	}
	m, err := mailer.Start(ctx, pool, mailer.Config{SMTP: cfg.SMTP, From: cfg.MailFrom, Logger: log})
	if err != nil {
		pool.Close()
		return nil, err
	}
	cfg.mailMetrics = m.Collector()
	if cfg.SMTP == nil {
		log.Warn("no SMTP_URL: mails are logged, not sent", "mail_from", cfg.MailFrom)
	} else {
		log.Info("sending mails", "smtp_url", cfg.SMTP.String(), "mail_from", cfg.MailFrom)
	}
	var once sync.Once
	var stopErr error
	return func(ctx context.Context) error {
		once.Do(func() {
			stopErr = m.Stop(ctx)
			pool.Close()
		})
		return stopErr
	}, nil
}

// defaultMailFrom is MAIL_FROM's default: no-reply@ the public host, when
// it is a domain name, else no-reply@localhost (set MAIL_FROM then).
func defaultMailFrom(publicBaseURL string) string {
	u, err := url.Parse(publicBaseURL)
	host := ""
	if err == nil {
		host = u.Hostname()
	}
	if host == "" || net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		host = "localhost"
	}
	return "no-reply@" + host
}

// openCartStore returns the Redis stores when REDIS_URL is set (carts, and
// the client throttles' buckets and the authenticated tokens' callers, set
// in cfg, on one connection pool), else the in-process cart store, and
// leaves the throttles and callers in process.
func openCartStore(ctx context.Context, cfg *Config) (cart.CartStore, func(), error) {
	if cfg.RedisURL == "" {
		m := cartstore.NewMemory(cartstore.DefaultMaxCarts)
		return m, m.Close, nil
	}
	client, err := cartstore.OpenRedis(ctx, cfg.RedisURL)
	if err != nil {
		return nil, nil, err
	}
	cfg.throttles = throttlestore.NewRedis(client, keyPrefix)
	cfg.callers = callercache.NewRedis(client, keyPrefix, domain.CallerCacheTTL)
	return cartstore.NewRedis(client, keyPrefix), func() { _ = client.Close() }, nil
}

// keyPrefix prefixes every Redis key of the service.
const keyPrefix = "salesplatform:"

// throttle names: the keys of their buckets in a shared store
// ("salesplatform:throttle:login:<client address>").
const (
	throttleLogin          = "login"
	throttleGiftLookup     = "gift-lookup"
	throttleContactRequest = "contact-request"
	throttleRequestPayment = "payment-request-pay"
	throttleCheckoutCodes  = "checkout-codes"
)

// openBlobStore returns the S3 store when S3_ENDPOINT is set, having
// checked that its bucket is reachable, else files under DATA_DIR/media.
func openBlobStore(ctx context.Context, cfg *Config) (domain.BlobStore, error) {
	if cfg.S3.Endpoint == "" {
		return blobstore.NewLocal(filepath.Join(cfg.DataDir, "media")), nil
	}
	s, err := blobstore.NewS3(cfg.S3)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return s, s.CheckBucket(cctx)
}

// readiness answers 200 when the database, and the cart store when it is a
// server (Redis), answer within two seconds; 503 naming the first that does
// not, or "draining" once the server is stopping, so that a load balancer
// stops sending requests here.
func readiness(db *bun.DB, carts cart.CartStore, draining *atomic.Bool) http.Handler {
	type check struct {
		name string
		ping func(context.Context) error
	}
	checks := []check{{"database", db.PingContext}}
	if p, ok := carts.(interface{ Ping(context.Context) error }); ok {
		checks = append(checks, check{"redis", p.Ping})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if draining != nil && draining.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":"draining"}`+"\n")
			return
		}
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
		defer cancel()
		for _, c := range checks {
			if err := c.ping(ctx); err != nil {
				middleware.LoggerFrom(req.Context()).Warn(c.name+" unreachable", "error", err.Error())
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = io.WriteString(w, `{"status":"`+c.name+` unreachable"}`+"\n")
				return
			}
		}
		_, _ = io.WriteString(w, `{"status":"ok"}`+"\n")
	})
}

// corsPaths are the paths browsers on partners' sites and CORS_ORIGINS may
// call: the graph and the public API v2 (the catalogue, gifts, contact
// requests, the cart) and the marketing widgets (which also answer any
// origin with "*", their legacy contract).
var corsPaths = []string{"/graphql", "/api/v2/", "/api/setup_marketing_widgets/"}

// NewHandler wires the services to both surfaces: REST and GraphQL run the
// same service values, behind the same metrics, request-id, logging, CORS
// and token middleware. /metrics serves a registry of its own, so that
// several handlers may run in one process (tests).
func NewHandler(db *bun.DB, carts cart.CartStore, cfg *Config, log *slog.Logger) http.Handler {
	useWebhookData() // the handler's services publish events
	reg := prometheus.NewRegistry()
	registerMetrics(reg, db, carts)
	if cfg.mailMetrics != nil {
		reg.MustRegister(cfg.mailMetrics)
	}
	if cfg.webhookMetrics != nil {
		reg.MustRegister(cfg.webhookMetrics)
	}
	reg.MustRegister(cfg.connMetrics...)
	metrics := middleware.NewMetrics(reg)
	r, all := newRouter(db, carts, cfg, log)
	r.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}))
	r.Use(middleware.Route)
	cors := middleware.CORS(middleware.CORSConfig{Partners: all.PartnerCatalog, Origins: cfg.CORSOrigins, Paths: corsPaths})
	// X-Partner-Domain's partner is read once per PartnerDomainCacheTTL.
	domains := domain.NewPartnerDomainCache(domain.PartnerDomainCacheTTL)
	// Any HTML answer without security headers of its own gets the strict
	// ones (rest/pagesecurity).
	return pagesecurity.SafetyNet(metrics.Observe(middleware.Observe(log)(cors(middleware.Authenticate(all.Accounts, domains, cfg.TrustedProxies)(r)))))
}

// registerMetrics adds to reg what is not HTTP: the Go runtime and the
// process, the database pool (go_sql_* with db_name="salesplatform"), and
// the cart store: the carts held in process, or the Redis pool's
// connections and waits (carts are not counted in Redis, where that would
// cost a scan).
func registerMetrics(reg *prometheus.Registry, db *bun.DB, carts cart.CartStore) {
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(db.DB, "salesplatform"),
	)
	if m, ok := carts.(*cartstore.Memory); ok {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Namespace: "salesplatform",
			Name:      "carts_in_memory",
			Help:      "Carts held by the in-process cart store, lapsed ones not yet freed included.",
		}, func() float64 { return float64(m.Len()) }))
	}
	if r, ok := carts.(*cartstore.Redis); ok {
		gauge := func(name, help string, value func(*redis.PoolStats) uint32) prometheus.Collector {
			return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "salesplatform", Subsystem: "redis_pool", Name: name, Help: help},
				func() float64 { return float64(value(r.PoolStats())) })
		}
		counter := func(name, help string, value func(*redis.PoolStats) uint32) prometheus.Collector {
			return prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "salesplatform", Subsystem: "redis_pool", Name: name, Help: help},
				func() float64 { return float64(value(r.PoolStats())) })
		}
		reg.MustRegister(
			gauge("connections", "Connections of the Redis pool (carts, throttles).", func(s *redis.PoolStats) uint32 { return s.TotalConns }),
			gauge("idle_connections", "Idle connections of the Redis pool.", func(s *redis.PoolStats) uint32 { return s.IdleConns }),
			counter("waits_total", "Redis commands that found no idle connection in the pool.", func(s *redis.PoolStats) uint32 { return s.Misses }),
			counter("timeouts_total", "Redis commands that gave up waiting for a connection of the pool.", func(s *redis.PoolStats) uint32 { return s.Timeouts }),
		)
	}
}

// NewRouter routes every path to its surface; accounts authenticates the
// tokens of its requests.
func NewRouter(db *bun.DB, carts cart.CartStore, cfg *Config, log *slog.Logger) (*mux.Router, *account.AccountService) {
	r, all := newRouter(db, carts, cfg, log)
	return r, all.Accounts
}

func newRouter(db *bun.DB, carts cart.CartStore, cfg *Config, log *slog.Logger) (*mux.Router, services.Services) {
	database := persistence.NewDatabase(db)
	partners := database.Stores().Partners
	// With a shared store (REDIS_URL) every instance counts the same
	// attempts; without one (nil) each throttle keeps its buckets here.
	var loginThrottle *domain.ClientThrottle
	if cfg.throttles != nil {
		loginThrottle = domain.NewSharedClientThrottle(cfg.throttles, throttleLogin, domain.DefaultLoginBurst, domain.DefaultLoginRefill)
	}
	// Tokens are authenticated from a cache of CallerCacheTTL: Redis when
	// the instances share one, else this process's.
	callers := cfg.callers
	if callers == nil {
		callers = domain.NewMemoryCallerCache(domain.CallerCacheTTL)
	}
	accounts := account.NewAccountService(database, loginThrottle, cfg.PasswordHashing).CacheCallers(callers)
	giftService := gifts.NewGiftService(persistence.NewGiftStore(db), partners)
	if cfg.throttles != nil {
		giftService.SetThrottles(
			domain.NewSharedClientThrottle(cfg.throttles, throttleGiftLookup, domain.DefaultGiftLookupBurst, domain.DefaultGiftLookupRefill),
			domain.NewSharedClientThrottle(cfg.throttles, throttleContactRequest, domain.DefaultContactRequestBurst, domain.DefaultContactRequestRefill))
	}
	blobs := cfg.blobs
	if blobs == nil { // a configuration built without serve (tests)
		blobs = blobstore.NewLocal(filepath.Join(cfg.DataDir, "media"))
	}
	// Idempotency keys of the writes that create or move value.
	keys := idempotency.NewGuard(persistence.NewIdempotencyStore(db))
	// The payment-service provider: the simulated one, whose pages are
	// served below, on its own pool (the hub's when built without serve).
	providerDB := cfg.providerDB
	if providerDB == nil {
		providerDB = db
	}
	provider := psp.NewSim(providerDB, cfg.PublicBaseURL)
	all := services.Services{
		Accounts:         accounts,
		Carts:            cart.NewService(carts, partners, cfg.CartTTL, cfg.PublicBaseURL).AllowLocalReturnURLs(cfg.DevMode),
		PartnerCatalog:   catalogue.NewPartnerCatalogService(persistence.NewPartnerCatalogStore(db), partners),
		EventCatalog:     catalogue.NewEventService(persistence.NewEventStore(db), partners),
		WorkshopCatalog:  catalogue.NewWorkshopService(persistence.NewUnitOfWork(db, persistence.WorkshopStores)),
		BoxCatalog:       catalogue.NewBoxService(persistence.NewUnitOfWork(db, persistence.BoxStores)),
		PrototypeCatalog: catalogue.NewPrototypeService(persistence.NewUnitOfWork(db, persistence.PrototypeStores)),
		Gifts:            giftService,
		Widgets:          widgets.NewWidgetService(persistence.NewUnitOfWork(db, persistence.WidgetStores)),
		VoucherAdmin:     vouchers.NewVoucherAdminService(persistence.NewUnitOfWork(db, persistence.VoucherStores)),
		MediaLibrary:     media.NewMediaService(persistence.NewUnitOfWork(db, persistence.MediaStores), blobs, cfg.PublicBaseURL),
		AdminPrototypes:  prototypes.NewAdminPrototypeService(persistence.NewUnitOfWork(db, persistence.PrototypeAdminStores)),
		NetworkGiftcards: network.NewGiftcardService(persistence.NewUnitOfWork(db, persistence.NetworkStores), keys).WithHoldTTL(cfg.HoldTTL),
		NetworkPartners:  network.NewPartnerService(persistence.NewUnitOfWork(db, persistence.NetworkStores), keys),
		NetworkVouchers:  network.NewVoucherService(persistence.NewUnitOfWork(db, persistence.NetworkStores), keys),

		// The payment hub's areas.
		MultiProductCarts: mpcart.NewService(persistence.NewUnitOfWork(db, persistence.MultiProductCartStores), keys),
		PaymentPartners:   payments.NewHubPartnerService(persistence.NewUnitOfWork(db, persistence.PaymentPartnerStores), keys, provider, blobs),
		Payments:          payments.NewPaymentService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), keys, provider),
		Wallets:           payments.NewWalletService(persistence.NewUnitOfWork(db, persistence.PaymentWalletReadStores)),
		Payouts:           payments.NewPayoutService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), keys),

		Ecommerce: ecommerce.NewService(persistence.NewUnitOfWork(db, persistence.EcommerceStores), partners),

		Webhooks: webhooks.NewService(persistence.NewUnitOfWork(db, persistence.WebhookStores),
			webhooks.URLRule{Resolver: net.DefaultResolver, Allowed: cfg.WebhookAllowedNetworks}),
	}

	// Payment requests' links, and the throttle of the payments their
	// public pages start.
	var requestPayments *domain.ClientThrottle
	if cfg.throttles != nil {
		requestPayments = domain.NewSharedClientThrottle(cfg.throttles, throttleRequestPayment,
			payments.DefaultRequestPayBurst, payments.DefaultRequestPayRefill)
	}
	all.Payments.WithRequestPages(cfg.PublicBaseURL, requestPayments)
	all.Checkout = newCheckout(db, all.Carts, carts, cfg, partners, all.Payments, all.NetworkGiftcards)
	if cfg.throttles != nil {
		all.Checkout.WithCodeThrottle(domain.NewSharedClientThrottle(cfg.throttles, throttleCheckoutCodes,
			domain.DefaultGiftLookupBurst, domain.DefaultGiftLookupRefill))
	}

	// A path with an empty or a dot segment is matched as sent, so not
	// found, rather than redirected to its cleaned form (mux's default):
	// a redirected POST would lose its body.
	r := mux.NewRouter().SkipClean(true)
	// Probes take the trailing slash as every legacy route does.
	r.Handle("/healthz{slash:/?}", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`+"\n")
	})).Methods(http.MethodGet, http.MethodHead)
	r.Handle("/readyz{slash:/?}", readiness(db, carts, cfg.draining)).Methods(http.MethodGet, http.MethodHead)
	// GraphQL over HTTP is GET and POST; another method (a preflight from
	// an origin CORS refused) gets the router's 405, as on every route.
	r.Handle("/graphql", graph.ToPlayground(playground.Path,
		graph.NewHandler(&graph.Resolver{Services: all, LoaderWait: cfg.LoaderWait, NoFastPath: cfg.NoGraphFastPath}, middleware.LoggerFrom))).
		Methods(http.MethodGet, http.MethodPost)
	r.PathPrefix("/playground").Handler(playground.Handler("/graphql"))
	r.PathPrefix(psp.PagePrefix).Handler(provider.Handler(psp.Callbacks{ActivationChanged: all.PaymentPartners.SyncActivation,
		PayinChanged: all.Payments.SyncPayin}))
	rest.Register(r, all)
	return r, all
}
