package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/redis/go-redis/v9"

	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/redistest"
)

// versityGW is the S3-compatible server the replicas keep media in: the
// Versity S3 gateway over a directory (posix backend), built from the Go
// module proxy at this exact version (go install pkg@version, so nothing
// enters go.mod).
const versityGW = "github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// replicasRedisDB is the Redis database the replicas share: not the one the
// other tests use (0), so the throttle bucket of 127.0.0.1 the test fills
// is its own. Only the keys the test made are deleted.
const replicasRedisDB = 11

// needed fails the test under CI=true, where every tool must be there, and
// skips it elsewhere.
func needed(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (required under CI=true)")
	}
	t.Skip(msg + " (set CI=true to make this a failure)")
}

// freePort returns a TCP port nothing listens on at 127.0.0.1.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitPort waits until something accepts connections at addr.
func waitPort(t *testing.T, addr string, within time.Duration, what string, exited <-chan struct{}, log func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before listening on %s:\n%s", what, addr, log())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("%s did not listen on %s within %v:\n%s", what, addr, within, log())
}

// process is a command of the test, its output kept, stopped by SIGTERM
// (then killed) when the test ends.
type process struct {
	cmd    *exec.Cmd
	out    *SyncBuffer
	exited chan struct{}
}

func startProcess(t *testing.T, env []string, name string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(name, args...), out: new(SyncBuffer), exited: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(20 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// startS3 builds and runs the Versity gateway over a temporary directory,
// creates bucket in it and returns its host:port and a client.
func startS3(t *testing.T, access, secret, bucket string) (string, *minio.Client) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		needed(t, "the go command is needed to build %s: %v", versityGW, err)
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", versityGW)
	// GOFLAGS could carry -mod flags meant for this module.
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=")
	if out, err := install.CombinedOutput(); err != nil {
		needed(t, "go install %s: %v\n%s", versityGW, err, out)
	}
	root := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	env := append(os.Environ(), "ROOT_ACCESS_KEY_ID="+access, "ROOT_SECRET_ACCESS_KEY="+secret)
	p := startProcess(t, env, filepath.Join(gobin, "versitygw"), "--port", addr, "posix", root)
	waitPort(t, addr, 30*time.Second, "versitygw", p.exited, p.out.String)

	client, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4(access, secret, ""), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := client.MakeBucket(ctx, bucket, minio.MakeBucketOptions{Region: "us-east-1"}); err != nil {
		t.Fatalf("create bucket %s: %v\n%s", bucket, err, p.out.String())
	}
	return addr, client
}

// replica is one server process and its log.
type replica struct {
	*process
	addr string
}

// requests counts the access lines of the replica's log for path.
func (r *replica) requests(path string) int {
	n := 0
	sc := bufio.NewScanner(strings.NewReader(r.out.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) == nil && line["path"] == path {
			n++
		}
	}
	return n
}

// startReplica runs `bin serve` on port with args, and waits for /readyz.
func startReplica(t *testing.T, bin string, port int, args ...string) *replica {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	// Every setting is a flag: the environment's DATABASE_URL, REDIS_URL,
	// S3_* must not leak in.
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "DATABASE_URL", name == "REDIS_URL", name == "DATA_DIR", strings.HasPrefix(name, "S3_"):
		default:
			env = append(env, kv)
		}
	}
	p := startProcess(t, append(env, "LOG_LEVEL=info", "PASSWORD_HASH_MEMORY=1"), bin,
		append([]string{"serve", "--addr", addr}, args...)...)
	waitPort(t, addr, 60*time.Second, "replica "+addr, p.exited, p.out.String)
	return &replica{process: p, addr: addr}
}

// nginxConf is the reverse proxy: one worker, so that its round robin
// alternates strictly between the replicas; X-Upstream names the replica
// that answered.
const nginxConf = `%s
worker_processes 1;
daemon off;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events { worker_connections 256; }
http {
    access_log %[2]s/access.log;
    client_body_temp_path %[2]s/client_body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    client_max_body_size 11m;
    upstream replicas {
        server %[3]s;
        server %[4]s;
    }
    server {
        listen 127.0.0.1:%[5]d;
        location / {
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            add_header X-Upstream $upstream_addr always;
        }
    }
}
`

// startNginx runs nginx, as this user, in front of the replicas and
// returns its base URL.
func startNginx(t *testing.T, a, b string) string {
	t.Helper()
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			needed(t, "nginx is not installed (apt-get install nginx): %v", err)
		}
		nginx = "/usr/sbin/nginx"
	}
	dir := t.TempDir()
	user := "" // a master run by an ordinary user keeps its workers as that user
	if os.Geteuid() == 0 {
		// As root, workers would switch to nobody, who cannot enter the
		// test's private temporary directory.
		user = "user root;"
	}
	port := freePort(t)
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(nginxConf, user, dir, a, b, port)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startProcess(t, os.Environ(), nginx, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	waitPort(t, addr, 10*time.Second, "nginx", p.exited, func() string {
		log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		return p.out.String() + string(log)
	})
	return "http://" + addr
}

// TestReplicas runs the deployment of docs/OPERATIONS.md on this machine:
// two server processes (the binary) on one PostgreSQL database, one Redis
// and one S3-compatible store, behind nginx, and checks through nginx that
// what one replica did the other sees.
func TestReplicas(t *testing.T) {
	t.Parallel()
	// Redis: a database of this test on the test server.
	opts := redistest.Options(t)
	opts.DB = replicasRedisDB
	rc := redis.NewClient(opts)
	defer rc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	replicaRedis := (&redisURLParts{opts}).String()
	var redisKeys sync.Map
	made := func(key string) { redisKeys.Store(key, true) }
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		redisKeys.Range(func(k, _ any) bool { rc.Del(ctx, k.(string)); return true })
	})
	// The bucket of the proxy's address: left by an earlier run, it would
	// throttle the logins below.
	loginKey := "salesplatform:throttle:login:127.0.0.1"
	made(loginKey)
	if err := rc.Del(ctx, loginKey).Err(); err != nil {
		t.Fatal(err)
	}

	const access, secret, bucket = "replicas-test", "replicas-test-secret", "media"
	s3, s3c := startS3(t, access, secret, bucket)

	dsn := dbtest.NewDSN(t)
	token := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop",
		"--permission", domain.PermManageMasterAdmin)

	bin := buildBinary(t)
	portA, portB := freePort(t), freePort(t)
	shared := []string{"--database-url", dsn, "--redis-url", replicaRedis,
		"--s3-endpoint", s3, "--s3-bucket", bucket, "--s3-access-key-id", access, "--s3-secret-access-key", secret,
		"--s3-region", "us-east-1", "--s3-insecure",
		// The replicas read the client from nginx's X-Forwarded-For.
		"--trusted-proxies", "127.0.0.1",
		// Nothing may be kept on a replica's disk: media go to S3.
		"--data-dir", filepath.Join(t.TempDir(), "unused")}
	a := startReplica(t, bin, portA, shared...)
	b := startReplica(t, bin, portB, append(shared, "--no-migrate")...)
	proxy := startNginx(t, a.addr, b.addr)
	replicaOf := map[string]string{a.addr: "A", b.addr: "B"}

	// do sends a request through the proxy and returns the response and
	// the replica that answered.
	do := func(t *testing.T, method, path, body string, headers ...string) (Response, string) {
		t.Helper()
		res := Do(t, method, proxy+path, body, headers...)
		up := res.Header.Get("X-Upstream")
		r, ok := replicaOf[up]
		if !ok {
			t.Fatalf("%s %s: X-Upstream %q is neither replica (%s, %s)", method, path, up, a.addr, b.addr)
		}
		return res, r
	}
	// other sends requests until one reaches the other replica than first
	// (round robin gets there at the first or second).
	other := func(t *testing.T, first, method, path, body string, headers ...string) Response {
		t.Helper()
		for range 4 {
			res, r := do(t, method, path, body, headers...)
			if r != first {
				return res
			}
		}
		t.Fatalf("%s %s never reached the replica other than %s", method, path, first)
		return Response{}
	}

	t.Run("RoundRobin", func(t *testing.T) {
		var seen []string
		for range 6 {
			res, r := do(t, http.MethodGet, "/readyz", "")
			WantResponse(t, res, 200, `{"status": "ok"}`)
			seen = append(seen, r)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] == seen[i-1] {
				t.Fatalf("replicas answered %v: want them to alternate", seen)
			}
		}
		// Each replica's own log shows the requests it answered. A request's
		// line is written once its answer is sent and read from the
		// process's stderr after, so wait for it a little.
		deadline := time.Now().Add(5 * time.Second)
		na, nb := a.requests("/readyz"), b.requests("/readyz")
		for (na < 3 || nb < 3) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			na, nb = a.requests("/readyz"), b.requests("/readyz")
		}
		if na < 3 || nb < 3 {
			t.Errorf("/readyz in the logs: A %d, B %d; want at least 3 each", na, nb)
		}
	})

	t.Run("LoginTokenOnBoth", func(t *testing.T) {
		res, first := do(t, http.MethodPost, "/api-token-auth/", `{"username": "shop", "password": "shop-password"}`)
		WantResponse(t, res, 200, "")
		tok := res.JSON(t)["token"].(string)
		got := other(t, first, http.MethodGet, "/api/permissions/", "", auth(tok)...)
		WantResponse(t, got, 200, `{"permissions": ["permissions.manage_masteradmin"]}`)
	})

	t.Run("CartOnBoth", func(t *testing.T) {
		res, first := do(t, http.MethodPost, "/api/v2/ecommerce/cart/", `{"items": [{"product_id": 3, "quantity": 2}]}`, auth(token)...)
		WantResponse(t, res, 201, "")
		id := res.JSON(t)["id"].(string)
		made("salesplatform:cart:" + id)
		got := other(t, first, http.MethodGet, "/api/v2/ecommerce/cart/"+id+"/", "", auth(token)...)
		WantResponse(t, got, 200, "")
		if got.JSON(t)["id"] != id {
			t.Errorf("cart read on the other replica: %s", got.Body)
		}
		if n, err := rc.Exists(context.Background(), "salesplatform:cart:"+id).Result(); err != nil || n != 1 {
			t.Errorf("the cart is not in the shared Redis: %d %v", n, err)
		}
	})

	t.Run("MediaOnBoth", func(t *testing.T) {
		img := image.NewRGBA(image.Rect(0, 0, 3, 2))
		img.Set(1, 1, color.RGBA{G: 200, A: 255})
		var pngData bytes.Buffer
		gcMust(t, png.Encode(&pngData, img))
		body, ct := multipartBody(t, field("name", "shared"), file("file", pngData.Bytes()))
		res, first := do(t, http.MethodPost, "/api/media/", body, "Content-Type", ct, "Authorization", "Token "+token)
		WantResponse(t, res, 201, "")
		uuid := res.JSON(t)["uuid"].(string)
		got := other(t, first, http.MethodGet, "/media/"+uuid, "")
		if got.Status != 200 || got.Body != pngData.String() {
			t.Fatalf("media served by the other replica: %d, %d bytes, want the %d uploaded", got.Status, len(got.Body), pngData.Len())
		}
		// The bytes are in the shared bucket.
		n := 0
		for obj := range s3c.ListObjects(context.Background(), bucket, minio.ListObjectsOptions{Recursive: true}) {
			if obj.Err != nil {
				t.Fatal(obj.Err)
			}
			n++
		}
		if n != 1 {
			t.Errorf("%d objects in the bucket, want 1", n)
		}
	})

	t.Run("LoginThrottleShared", func(t *testing.T) {
		// Ten refused logins, split between the replicas, spend the
		// proxy address's bucket: the eleventh is refused on either,
		// even with the right password. Per-process buckets would allow
		// ten on each.
		// Each claims another address in X-Forwarded-For: nginx, the edge,
		// replaces it with the client's, so the claims share one bucket.
		by := map[string]int{}
		for i := range domain.DefaultLoginBurst {
			res, r := do(t, http.MethodPost, "/api-token-auth/", `{"username": "shop", "password": "wrong"}`,
				"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1))
			if res.Status != 400 {
				t.Fatalf("refused login %d: %d %s", i+1, res.Status, res.Body)
			}
			by[r]++
		}
		if by["A"] == 0 || by["B"] == 0 {
			t.Fatalf("refused logins by replica: %v; want both", by)
		}
		for range 2 {
			res, r := do(t, http.MethodPost, "/api-token-auth/", `{"username": "shop", "password": "shop-password"}`)
			if res.Status != 429 || res.Header.Get("Retry-After") == "" {
				t.Errorf("login past the limit on replica %s: %d %s", r, res.Status, res.Body)
			}
		}
		if ttl, err := rc.PTTL(context.Background(), loginKey).Result(); err != nil || ttl <= 0 {
			t.Errorf("the login bucket is not in the shared Redis: %v %v", ttl, err)
		}
		if n := rc.Exists(context.Background(), "salesplatform:throttle:login:198.51.100.1").Val(); n != 0 {
			t.Error("a client's claimed address got a bucket of its own")
		}
	})
}

// redisURLParts rebuilds a redis:// URL from parsed options (the test's
// server with the test's database).
type redisURLParts struct{ o *redis.Options }

func (p *redisURLParts) String() string {
	u := "redis://"
	if p.o.Username != "" || p.o.Password != "" {
		u += p.o.Username + ":" + p.o.Password + "@"
	}
	return fmt.Sprintf("%s%s/%d", u, p.o.Addr, p.o.DB)
}
