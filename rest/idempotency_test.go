package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

type spend struct {
	ID     int64 `json:"id"`
	Amount int64 `json:"amount"`
}

// spendService writes a row of the scratch table spends through the
// guard; a negative amount is refused on its field after the write.
type spendService struct {
	uow   domain.UnitOfWork[bun.IDB]
	guard *idempotency.Guard
	// hold, when set, is waited for inside the work.
	hold chan struct{}
}

func (s *spendService) spend(ctx context.Context, amount int64) (*spend, error) {
	return idempotency.Run(ctx, s.guard, "test.spend", amount, func(ctx context.Context, complete idempotency.Complete[*spend]) (idempotency.Done[*spend], error) {
		var done idempotency.Done[*spend]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx bun.IDB) error {
			if s.hold != nil {
				<-s.hold
			}
			sp := &spend{Amount: amount}
			if err := tx.NewRaw(`INSERT INTO spends (amount) VALUES (?) RETURNING id`, amount).Scan(ctx, &sp.ID); err != nil {
				return err
			}
			if amount < 0 {
				return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
					Fields: []domain.FieldError{{Path: []any{"amount"}, Code: domain.VMinValue, Message: "Ensure this value is greater than 0."}}}
			}
			var err error
			done, err = complete(ctx, persistence.NewIdempotencyStore(tx), sp)
			return err
		})
		return done, err
	})
}

// A POST route wrapped with idempotent, as a route that moves value is:
// the header's key reaches the service's guard, a replay is flagged, and
// the guard's refusals are DRF bodies.
func TestIdempotentRoute(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	if _, err := db.ExecContext(t.Context(), `CREATE TABLE spends (id bigserial PRIMARY KEY, amount int NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	svc := &spendService{uow: persistence.NewUnitOfWork(db, func(idb bun.IDB) bun.IDB { return idb }),
		guard: idempotency.NewGuard(persistence.NewIdempotencyStore(db))}
	router := mux.NewRouter()
	handle(router, "/api/spends/", idempotent(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := decodeDoc(w, r)
		if !ok {
			return
		}
		amount, _ := doc["amount"].(json.Number).Int64()
		s, err := svc.spend(r.Context(), amount)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusCreated, s)
	}), http.MethodPost)
	caller := domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 1}, TokenID: 1})
	post := func(body string, keys ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(caller, http.MethodPost, "/api/spends/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for _, k := range keys {
			req.Header.Add("X-Idempotency-Key", k)
		}
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		return rec
	}
	want := func(t *testing.T, rec *httptest.ResponseRecorder, status int, body, replayed string) {
		t.Helper()
		if rec.Code != status || strings.TrimSpace(rec.Body.String()) != body || rec.Header().Get("Idempotent-Replayed") != replayed {
			t.Errorf("answer %d %s (Idempotent-Replayed %q), want %d %s (%q)", rec.Code, rec.Body, rec.Header().Get("Idempotent-Replayed"),
				status, body, replayed)
		}
	}
	count := func(t *testing.T) int {
		t.Helper()
		n, err := db.NewSelect().Table("spends").Count(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	t.Run("WithoutKey", func(t *testing.T) {
		want(t, post(`{"amount": 5}`), http.StatusCreated, `{"id":1,"amount":5}`, "")
		want(t, post(`{"amount": 5}`), http.StatusCreated, `{"id":2,"amount":5}`, "")
	})
	t.Run("Replay", func(t *testing.T) {
		want(t, post(`{"amount": 7}`, "k1"), http.StatusCreated, `{"id":3,"amount":7}`, "")
		want(t, post(`{"amount": 7}`, "k1"), http.StatusCreated, `{"id":3,"amount":7}`, "true")
		if n := count(t); n != 3 {
			t.Errorf("%d spends, want 3", n)
		}
	})
	t.Run("OtherBody422", func(t *testing.T) {
		want(t, post(`{"amount": 8}`, "k1"), http.StatusUnprocessableEntity, `{"detail":"`+idempotency.MsgKeyReused+`"}`, "")
	})
	t.Run("Refusal", func(t *testing.T) {
		body := `{"amount":["Ensure this value is greater than 0."]}`
		want(t, post(`{"amount": -1}`, "k2"), http.StatusBadRequest, body, "") // spends' id 4, rolled back
		want(t, post(`{"amount": -1}`, "k2"), http.StatusBadRequest, body, "true")
	})
	t.Run("InProgress409", func(t *testing.T) {
		svc.hold = make(chan struct{})
		first := make(chan *httptest.ResponseRecorder)
		go func() { first <- post(`{"amount": 9}`, "k3") }()
		// The first holds its key once it waits in its work.
		for {
			var n int
			if err := db.NewRaw(`SELECT count(*) FROM idempotency_keys WHERE key = 'k3'`).Scan(t.Context(), &n); err != nil {
				t.Fatal(err)
			}
			if n == 1 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		want(t, post(`{"amount": 9}`, "k3"), http.StatusConflict, `{"detail":"`+idempotency.MsgInProgress+`"}`, "")
		close(svc.hold)
		want(t, <-first, http.StatusCreated, `{"id":5,"amount":9}`, "")
		svc.hold = nil
	})
	t.Run("BadKey400", func(t *testing.T) {
		before := count(t)
		bad := `{"detail":"` + idempotency.MsgBadKey + `"}`
		for _, key := range []string{"", strings.Repeat("k", 256), "a b", "clé"} {
			want(t, post(`{"amount": 5}`, key), http.StatusBadRequest, bad, "")
		}
		want(t, post(`{"amount": 5}`, "k4", "k5"), http.StatusBadRequest, `{"detail":"Send one X-Idempotency-Key header, not several."}`, "")
		if n := count(t); n != before {
			t.Errorf("%d spends after bad keys, want %d", n, before)
		}
	})
}
