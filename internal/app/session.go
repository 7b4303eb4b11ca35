package app

import (
	"context"
	"crypto/sha256"
	"strings"
	"time"
)

// Replicas share only the database, so a sign-out is a row there: the
// session's identity (sessionID), read on every use of a session
// (verifySession) and kept until the token expires anyway.
type sessionStore interface {
	// RevokeSession records a signed-out session until it expires; revoking
	// it again changes nothing.
	RevokeSession(ctx context.Context, id []byte, expires time.Time) error
	// SessionRevoked reports whether either id was revoked: the session's,
	// or the whole token's hash that sign-outs before sessionID recorded.
	SessionRevoked(ctx context.Context, id, legacy []byte) (bool, error)
	// PruneSessionRevocations deletes the rows of tokens expired before t.
	PruneSessionRevocations(ctx context.Context, before time.Time) (int64, error)
}

// revocationMargin keeps a revocation past the token's exp for longer than
// the verifier's leeway on it, so no replica accepts the token in between.
const revocationMargin = time.Minute

// verifySession checks an account-session token: signed, unexpired and not
// signed out. Every failure is the same unauthenticated error.
func (s *Service) verifySession(ctx context.Context, token string) (Identity, error) {
	if s.sessions == nil || strings.Count(token, ".") != 2 {
		return Identity{}, ErrUnauthenticated()
	}
	id, err := s.sessions.Verify(ctx, token)
	if err != nil || id.Subject == "" {
		return Identity{}, ErrUnauthenticated()
	}
	revoked, err := s.store.SessionRevoked(ctx, sessionID(token), tokenHash(token))
	if err != nil {
		return Identity{}, err
	}
	if revoked {
		return Identity{}, ErrUnauthenticated()
	}
	return id, nil
}

// SignOut ends an account session on every replica: from the next request
// on, the token is refused as a cookie and as a bearer. Other sessions of the
// same account go on. A token that is no session (expired, forged, already
// signed out, an API key) has nothing to end.
func (s *Service) SignOut(ctx context.Context, token string) error {
	id, err := s.verifySession(ctx, token)
	if ErrorCode(err) == CodeUnauthenticated {
		return nil
	}
	if err != nil {
		return err
	}
	return s.store.RevokeSession(ctx, sessionID(token), id.Expires.Add(revocationMargin))
}

// PruneSessions forgets the sign-outs of tokens that have expired since.
func (s *Service) PruneSessions(ctx context.Context) (int64, error) {
	return s.store.PruneSessionRevocations(ctx, s.now())
}

// sessionID is what a session is, whatever its signature looks like: the
// hash of the signed header and claims (subject, issue time, expiry, jti),
// the token up to its last dot. The verifier reads only one spelling of a
// signature, but an ECDSA signature (ES256, from an identity provider) has a
// second valid value for the same claims; keyed on the claims, a sign-out
// ends both.
func sessionID(token string) []byte {
	return tokenHash(token[:strings.LastIndexByte(token, '.')])
}

// tokenHash is the SHA-256 of s. Sign-outs recorded before sessionID hashed
// the whole token; they are read until they expire (at most the identity
// provider's token lifetime after this release) and can go then.
func tokenHash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}
