package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"hash/crc32"
	"slices"
	"strings"
	"time"
)

// Scopes a key may hold.
const (
	ScopeExtract = "extract"
	ScopeAnalyze = "analyze"
	ScopeMonitor = "monitor"
)

// KeyPrefix starts every raw key; KeyLength is the raw key's exact length.
const (
	KeyPrefix       = "cwsk_"
	KeyLength       = 53
	keyPrefixLength = 12 // the listed keyPrefix: first 12 characters of the raw key
	keyBodyLength   = 48
	keyRandomLength = 42 // the first 42 of the 48 characters; 6 more are the checksum
)

var (
	allScopes     = []string{ScopeExtract, ScopeAnalyze, ScopeMonitor}
	defaultScopes = []string{ScopeExtract, ScopeAnalyze}
	b64           = base64.RawURLEncoding
)

// Key is an API key as stored: never the raw key, only its SHA-256 hash.
type Key struct {
	ID           string
	AccountID    string
	Name         string
	Prefix       string
	Hash         []byte
	Scopes       Scopes
	RequestCount int64
	LastUsedAt   *time.Time
	CreatedAt    time.Time
	RevokedAt    *time.Time
}

// Has reports whether the key holds scope.
func (k *Key) Has(scope string) bool { return slices.Contains(k.Scopes, scope) }

// KeyFilter selects an account's keys.
type KeyFilter struct {
	AccountID      string
	IncludeRevoked bool
}

// KeyCreate is the input of CreateKey.
type KeyCreate struct {
	Name   string   `json:"name" validate:"required,max=100"`
	Scopes []string `json:"scopes" validate:"omitempty,max=3,unique,dive,oneof=extract analyze monitor"`
}

// CreatedKey is a new key with its raw value, shown this once.
type CreatedKey struct {
	Key    *Key
	RawKey string
}

// NewRawKey returns a fresh raw key: the prefix, 42 characters from
// crypto/rand and a 6-character checksum, 53 characters in all.
func NewRawKey() string {
	// 32 random bytes give 43 base64url characters; 42 of them are used.
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the platform is broken; never continue with weak keys
	}
	body := b64.EncodeToString(buf[:])[:keyRandomLength]
	return KeyPrefix + body + keyChecksum(KeyPrefix+body)
}

// keyChecksum is CRC32 (IEEE) of everything before it, base64url, left-padded
// with 'A' (base64's zero) to 6 characters.
func keyChecksum(s string) string {
	sum := crc32.ChecksumIEEE([]byte(s))
	enc := b64.EncodeToString([]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})
	return strings.Repeat("A", 6-len(enc)) + enc
}

// WellFormedKey reports whether raw has the key's shape and a valid checksum.
// It touches no database, so mistyped keys cost nothing.
func WellFormedKey(raw string) bool {
	if len(raw) != KeyLength || !strings.HasPrefix(raw, KeyPrefix) {
		return false
	}
	for _, c := range raw[len(KeyPrefix):] {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	cut := KeyLength - 6
	return raw[cut:] == keyChecksum(raw[:cut])
}

// HashKey is how a raw key is stored and looked up.
func HashKey(raw string) []byte {
	h := sha256.Sum256([]byte(raw))
	return h[:]
}

// CreateKey makes a key for the signed-in account. Only an account session
// may do this: a key can never mint keys. Over the plan's cap of active keys
// it is refused (403, keyLimit) and nothing is created.
func (s *Service) CreateKey(ctx context.Context, in KeyCreate) (*CreatedKey, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	if p.Key != nil {
		return nil, Errorf(CodeForbidden, "API keys cannot create API keys; sign in to the portal")
	}
	in.Name = strings.TrimSpace(in.Name)
	if err := s.validate(in); err != nil {
		return nil, err
	}
	scopes := in.Scopes
	if len(scopes) == 0 {
		scopes = defaultScopes
	}
	raw := NewRawKey()
	k := &Key{
		ID:        newID(),
		AccountID: p.Account.ID,
		Name:      in.Name,
		Prefix:    raw[:keyPrefixLength],
		Hash:      HashKey(raw),
		Scopes:    sortScopes(scopes),
		CreatedAt: s.now(),
	}
	// A downgrade keeps the keys working; only new ones are refused.
	limit := limitsOf(p.Account.Tier).keys
	if ok, err := s.store.CreateKey(ctx, k, limit); err != nil {
		return nil, err
	} else if !ok {
		return nil, keyLimitError(p.Account.Tier, limit)
	}
	return &CreatedKey{Key: k, RawKey: raw}, nil
}

// FindKeys lists the calling account's keys, newest first.
func (s *Service) FindKeys(ctx context.Context, includeRevoked bool) ([]Key, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	if a := admissionFrom(ctx); a != nil && a.Principal == p {
		if keys, ok := a.prefetchedKeys(includeRevoked); ok {
			return keys, nil // read with the authentication
		}
	}
	return s.store.FindKeys(ctx, KeyFilter{AccountID: p.Account.ID, IncludeRevoked: includeRevoked})
}

// RevokeKey soft-revokes one of the caller's keys. Another account's key and
// an unknown id are both not_found, so ids cannot be probed.
func (s *Service) RevokeKey(ctx context.Context, id string) (*Key, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	if !validID(id) {
		return nil, Errorf(CodeNotFound, "API key not found")
	}
	return s.store.RevokeKey(ctx, p.Account.ID, id, s.now())
}

// sortScopes puts scopes in the contract's order, so lists read the same everywhere.
func sortScopes(in []string) Scopes {
	out := make(Scopes, 0, len(in))
	for _, s := range allScopes {
		if slices.Contains(in, s) {
			out = append(out, s)
		}
	}
	return out
}
