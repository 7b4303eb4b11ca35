// Package session verifies account-session tokens: JWTs from an identity
// provider (JWKS, RS256/ES256) or, for self-hosting and the zero-setup mode,
// HS256 with a shared secret.
package session

import (
	"context"
	"errors"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"

	"github.com/clausewatch/clausewatch/internal/app"
)

// Verifier implements app.SessionVerifier.
type Verifier struct {
	keyfunc jwt.Keyfunc
	parser  *jwt.Parser
}

type claims struct {
	Email string `json:"email"`
	jwt.RegisteredClaims
}

// NewHS256 verifies tokens signed with secret.
func NewHS256(secret []byte, issuer, audience string) *Verifier {
	kf := func(*jwt.Token) (any, error) { return secret, nil }
	return &Verifier{keyfunc: kf, parser: newParser([]string{"HS256"}, issuer, audience)}
}

// NewJWKS verifies tokens against the identity provider's key set, which
// keyfunc fetches and refreshes in the background until ctx ends.
func NewJWKS(ctx context.Context, jwksURL, issuer, audience string) (*Verifier, error) {
	kf, err := keyfunc.NewDefaultCtx(ctx, []string{jwksURL})
	if err != nil {
		return nil, err
	}
	return &Verifier{keyfunc: kf.Keyfunc, parser: newParser([]string{"RS256", "ES256"}, issuer, audience)}, nil
}

// newParser reads only the canonical encoding (no padding, which the parser
// refuses by default, and no set bits past a segment's end), so a token has
// one spelling: revocation and anything else keyed on it cannot be undone by
// writing the same signature another way.
func newParser(methods []string, issuer, audience string) *jwt.Parser {
	opts := []jwt.ParserOption{jwt.WithValidMethods(methods), jwt.WithExpirationRequired(), jwt.WithLeeway(30 * time.Second),
		jwt.WithStrictDecoding()}
	if issuer != "" {
		opts = append(opts, jwt.WithIssuer(issuer))
	}
	if audience != "" {
		opts = append(opts, jwt.WithAudience(audience))
	}
	return jwt.NewParser(opts...)
}

// Verify implements app.SessionVerifier.
func (v *Verifier) Verify(_ context.Context, token string) (app.Identity, error) {
	var c claims
	if _, err := v.parser.ParseWithClaims(token, &c, v.keyfunc); err != nil {
		return app.Identity{}, err
	}
	if c.Subject == "" {
		return app.Identity{}, errors.New("token has no subject")
	}
	// The parser requires exp, so ExpiresAt is set.
	return app.Identity{Subject: c.Subject, Email: c.Email, Expires: c.ExpiresAt.Time}, nil
}

// MintHS256 issues a session token, for the zero-setup owner and for tests.
func MintHS256(secret []byte, subject, email, issuer, audience string, ttl time.Duration) (string, error) {
	now := time.Now()
	c := claims{Email: email, RegisteredClaims: jwt.RegisteredClaims{
		Subject:   subject,
		Issuer:    issuer,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}}
	if audience != "" {
		c.Audience = jwt.ClaimStrings{audience}
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(secret)
}
