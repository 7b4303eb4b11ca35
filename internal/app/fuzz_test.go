package app_test

import (
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/app"
)

// FuzzWellFormedKey: no input panics; a key passes only in its exact shape;
// one changed character of a real key is always refused (CRC32 catches
// every single-character error). make proof runs it for a bounded time.
func FuzzWellFormedKey(f *testing.F) {
	for _, s := range []string{app.NewRawKey(), "", "cwsk_", "cwsk_" + strings.Repeat("A", 48), "Bearer cwsk_x", "cwsk_\x00\xff"} {
		f.Add(s, 7, byte('x'))
	}
	valid := app.NewRawKey()
	f.Fuzz(func(t *testing.T, raw string, pos int, c byte) {
		if app.WellFormedKey(raw) {
			if len(raw) != app.KeyLength || !strings.HasPrefix(raw, app.KeyPrefix) || strings.ContainsFunc(raw[len(app.KeyPrefix):], func(r rune) bool {
				return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
			}) {
				t.Errorf("%q accepted", raw)
			}
		}
		if pos < 0 {
			pos = -pos
		}
		i := len(app.KeyPrefix) + pos%(app.KeyLength-len(app.KeyPrefix))
		mutated := valid[:i] + string(c) + valid[i+1:]
		if mutated != valid && app.WellFormedKey(mutated) {
			t.Errorf("one character changed at %d (%q) still passes", i, c)
		}
	})
}
