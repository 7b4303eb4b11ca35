package monitor_test

import (
	"os"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

func ptr[T any](v T) *T { return &v }
