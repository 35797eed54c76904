package callercache_test

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/persistence/callercache"
	"salesplatform/persistence/redistest"
)

func TestRedis(t *testing.T) {
	client := redistest.Open(t)
	prefix := redistest.Prefix(t, client, "callercache")
	cache := callercache.NewRedis(client, prefix, time.Minute)
	ctx := context.Background()
	key := string([]byte{0x01, 0xfe, 'k'}) // a token's hash: raw bytes

	if _, ok := cache.Get(ctx, key); ok {
		t.Fatal("a miss answers a caller")
	}
	c := &domain.Caller{
		User:        &domain.User{ID: 7, UUID: uuid.New(), Username: "shop", PasswordHash: "$argon2id$secret", IsActive: true},
		Partner:     &domain.Partner{ID: 3, UUID: uuid.New(), Name: "Shop", Currency: "CHF"},
		Permissions: []string{domain.PermManageMasterAdmin},
		TokenID:     42,
	}
	cache.Put(ctx, key, c)
	got, ok := cache.Get(ctx, key)
	if !ok || got.User.ID != 7 || got.User.Username != "shop" || got.Partner.Name != "Shop" || got.Partner.Currency != "CHF" ||
		!got.HasPermission(domain.PermManageMasterAdmin) || !got.User.IsActive || got.TokenID != 42 {
		t.Fatalf("Get = %+v, %v", got, ok)
	}
	redisKey := prefix + "caller:" + hex.EncodeToString([]byte(key))
	stored := client.Get(ctx, redisKey).Val()
	if strings.Contains(stored, "argon2id") || got.User.PasswordHash != "" {
		t.Errorf("the password hash is cached: %s", stored)
	}
	if ttl := client.PTTL(ctx, redisKey).Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("TTL = %v, want at most a minute", ttl)
	}
	// A value that is not a caller is a miss, not an error.
	client.Set(ctx, redisKey, "not json", time.Minute)
	if _, ok := cache.Get(ctx, key); ok {
		t.Error("a corrupt entry answers a caller")
	}
}
