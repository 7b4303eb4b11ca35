package apptest

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

// Respellings are the other ways to write a session token's signature that
// a lenient base64url decoder reads as the same bytes: each last character
// that differs only in the bits past the signature's end, and the token
// padded. A signed-out token must be refused in every one of them.
func Respellings(t testing.TB, token string) []string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	dot := strings.LastIndexByte(token, '.')
	sig := token[dot+1:]
	want, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range alphabet {
		spelled := sig[:len(sig)-1] + string(c)
		if got, err := base64.RawURLEncoding.DecodeString(spelled); err == nil && bytes.Equal(got, want) && spelled != sig {
			out = append(out, token[:dot+1]+spelled)
		}
	}
	if len(out) != 3 { // 32 bytes in 43 characters: the last carries 4 bits and 2 unused
		t.Fatalf("%d respellings of %q, want 3", len(out), sig)
	}
	return append(out, token+"=", token+"==")
}
