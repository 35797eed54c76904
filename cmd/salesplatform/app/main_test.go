package app_test

import (
	"testing"

	"salesplatform/cmd/salesplatform/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
