package app_test

import (
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// codeOf is err's code, "" for success.
func codeOf(err error) app.Code {
	if err == nil {
		return ""
	}
	return app.ErrorCode(err)
}

// wantCode fails unless err is an app error of code ("": success).
func wantCode(t *testing.T, what string, err error, code app.Code) {
	t.Helper()
	if got := codeOf(err); got != code {
		t.Errorf("%s: %v, want code %q", what, err, code)
	}
}

// wantData fails unless err carries the extra body members data (others,
// such as the limit members limit, used, resetsAt and hint, may be there too).
func wantData(t *testing.T, what string, err error, data map[string]any) {
	t.Helper()
	var e *app.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v, want an app error with data %v", what, err, data)
		return
	}
	for k, v := range data {
		if !reflect.DeepEqual(e.Data[k], v) {
			t.Errorf("%s: %v with data %v, want %s = %v", what, err, e.Data, k, v)
		}
	}
}
