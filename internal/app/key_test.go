package app_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/app"
)

func TestRawKeyFormat(t *testing.T) {
	seen := map[string]bool{}
	for range 5000 {
		k := app.NewRawKey()
		if len(k) != app.KeyLength || !strings.HasPrefix(k, "cwsk_") {
			t.Fatalf("key %q: want 53 characters starting cwsk_", k)
		}
		if !app.WellFormedKey(k) {
			t.Fatalf("fresh key %q fails its own checksum", k)
		}
		if seen[k] {
			t.Fatalf("duplicate key %q", k)
		}
		seen[k] = true
	}
}

func TestRawKeyRejectsAnyFlippedCharacter(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		k := []byte(app.NewRawKey())
		for i := len(app.KeyPrefix); i < len(k); i++ {
			orig := k[i]
			c := alphabet[rng.IntN(len(alphabet))]
			if c == orig {
				continue
			}
			k[i] = c
			if app.WellFormedKey(string(k)) {
				t.Fatalf("key with position %d changed still passes: %s", i, k)
			}
			k[i] = orig
		}
	}
}

func TestWellFormedKeyRejects(t *testing.T) {
	good := app.NewRawKey()
	for name, k := range map[string]string{
		"empty":        "",
		"short":        good[:52],
		"long":         good + "A",
		"wrong prefix": "cwpk_" + good[5:],
		"bad alphabet": good[:10] + "+" + good[11:],
		"jwt-looking":  "eyJhbGciOiJIUzI1NiJ9.e30.sig",
	} {
		if app.WellFormedKey(k) {
			t.Errorf("%s: %q accepted", name, k)
		}
	}
}
