package e2e

import (
	"testing"

	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
