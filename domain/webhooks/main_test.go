package webhooks_test

import (
	"testing"

	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
