package session

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

func TestHS256(t *testing.T) {
	v := NewHS256(secret, "https://issuer.test", "clausewatch")
	good, _ := MintHS256(secret, "user-1", "u@example.com", "https://issuer.test", "clausewatch", time.Hour)
	id, err := v.Verify(context.Background(), good)
	if err != nil || id.Subject != "user-1" || id.Email != "u@example.com" {
		t.Fatalf("good token: %+v %v", id, err)
	}
	bad := map[string]string{}
	bad["expired"], _ = MintHS256(secret, "user-1", "", "https://issuer.test", "clausewatch", -time.Hour)
	bad["other secret"], _ = MintHS256([]byte("another-secret-another-secret-000"), "user-1", "", "https://issuer.test", "clausewatch", time.Hour)
	bad["wrong issuer"], _ = MintHS256(secret, "user-1", "", "https://evil.test", "clausewatch", time.Hour)
	bad["wrong audience"], _ = MintHS256(secret, "user-1", "", "https://issuer.test", "other", time.Hour)
	bad["no subject"], _ = MintHS256(secret, "", "", "https://issuer.test", "clausewatch", time.Hour)
	none := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"sub": "x", "exp": time.Now().Add(time.Hour).Unix()})
	bad["alg none"], _ = none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	for name, tok := range bad {
		if _, err := v.Verify(context.Background(), tok); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A token has one spelling: the same signature with other bits past its end
// in the last character, or padded, is refused.
func TestOnlyTheCanonicalSpelling(t *testing.T) {
	v := NewHS256(secret, "", "")
	good, _ := MintHS256(secret, "user-1", "", "", "", time.Hour)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	want, _ := base64.RawURLEncoding.DecodeString(good[strings.LastIndexByte(good, '.')+1:])
	respelled := []string{good + "=", good + "=="}
	for _, c := range alphabet {
		tok := good[:len(good)-1] + string(c)
		sig, err := base64.RawURLEncoding.DecodeString(tok[strings.LastIndexByte(tok, '.')+1:])
		if tok != good && err == nil && string(sig) == string(want) {
			respelled = append(respelled, tok)
		}
	}
	if len(respelled) != 2+3 { // 32 bytes in 43 characters: the last carries 4 bits and 2 unused
		t.Fatalf("%d respellings, want 5", len(respelled))
	}
	for _, tok := range respelled {
		if _, err := v.Verify(context.Background(), tok); err == nil {
			t.Errorf("respelled ...%s: accepted", tok[len(tok)-3:])
		}
	}
}

// The identity provider's key set is served on loopback.
func TestJWKS(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{
		"kty": "RSA", "kid": "k1", "alg": "RS256", "use": "sig",
		"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
	}}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(jwks)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	v, err := NewJWKS(ctx, srv.URL, "https://idp.test", "clausewatch")
	if err != nil {
		t.Fatal(err)
	}
	sign := func(m jwt.MapClaims, k *rsa.PrivateKey) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, m)
		tok.Header["kid"] = "k1"
		s, err := tok.SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	claims := jwt.MapClaims{"sub": "idp|42", "email": "a@example.com", "iss": "https://idp.test", "aud": "clausewatch", "exp": time.Now().Add(time.Hour).Unix()}
	id, err := v.Verify(ctx, sign(claims, key))
	if err != nil || id.Subject != "idp|42" || id.Email != "a@example.com" {
		t.Fatalf("valid RS256 token: %+v %v", id, err)
	}
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	if _, err := v.Verify(ctx, sign(claims, other)); err == nil {
		t.Error("token signed by another key accepted")
	}
	claims["aud"] = "someone-else"
	if _, err := v.Verify(ctx, sign(claims, key)); err == nil {
		t.Error("wrong audience accepted")
	}
	// An HS256 token made with the public modulus as secret must not pass (algorithm confusion).
	hs, _ := MintHS256(key.N.Bytes(), "idp|42", "", "https://idp.test", "clausewatch", time.Hour)
	if _, err := v.Verify(ctx, hs); err == nil {
		t.Error("HS256 token accepted by a JWKS verifier")
	}
}
