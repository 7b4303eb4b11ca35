package monitor

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

// Feeds: Atom feeds of an account's alerts and of one monitor's, read by
// URL with a feed token. A feed token is read-only and separate from API
// keys: it reads alerts and nothing else, and no key or session is needed
// to use it. An account has at most one; rotating it replaces it, and since
// every feed read looks the token up in the database, the old one stops
// working at once on every replica.

// FeedTokenPrefix starts every feed token, so one pasted in the wrong place
// is recognised (and never mistaken for an API key).
const FeedTokenPrefix = "cwfd_"

// feedTokenLength is a token's length: the prefix and 43 base64url
// characters of 32 random bytes.
const feedTokenLength = len(FeedTokenPrefix) + 43

// FeedEntries is how many alerts a feed holds, newest first.
const FeedEntries = 50

// FeedToken is an account's feed token as stored: its hash, never the token.
type FeedToken struct {
	AccountID string
	Hash      []byte
	Prefix    string // the first 12 characters, to recognise it by
	CreatedAt time.Time
}

// NewFeedToken is a token just made: the only time its raw value is known.
type NewFeedToken struct {
	FeedToken
	Token string
}

type feedStore interface {
	// SaveFeedToken makes t the account's feed token, replacing any other.
	SaveFeedToken(ctx context.Context, t *FeedToken) error
	// FindFeedToken is the account's feed token; CodeNotFound when it has none.
	FindFeedToken(ctx context.Context, accountID string) (*FeedToken, error)
	// FindFeedTokenByHash is CodeNotFound for a hash no account holds.
	FindFeedTokenByHash(ctx context.Context, hash []byte) (*FeedToken, error)
}

// RotateFeedToken makes a new feed token for the signed-in account and
// returns it; the previous one stops working at once. Only an account
// session may rotate: an API key reads and writes through its scopes, and
// a feed token reads feeds only.
func (s *Service) RotateFeedToken(ctx context.Context) (*NewFeedToken, error) {
	p, err := app.Authorize(ctx, "")
	if err != nil {
		return nil, err
	}
	if p.Key != nil {
		return nil, app.Errorf(app.CodeForbidden, "API keys cannot rotate the feed token; sign in to the portal")
	}
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	raw := FeedTokenPrefix + base64.RawURLEncoding.EncodeToString(buf[:])
	t := NewFeedToken{Token: raw, FeedToken: FeedToken{AccountID: p.Account.ID, Hash: hashFeedToken(raw),
		Prefix: raw[:12], CreatedAt: s.now().Truncate(time.Millisecond)}}
	if err := s.store.SaveFeedToken(ctx, &t.FeedToken); err != nil {
		return nil, err
	}
	return &t, nil
}

// FindFeedToken is the caller's feed token (its prefix and creation time);
// CodeNotFound until one was made. Any credential of the account may ask.
func (s *Service) FindFeedToken(ctx context.Context) (*FeedToken, error) {
	p, err := app.Authorize(ctx, "")
	if err != nil {
		return nil, err
	}
	return s.store.FindFeedToken(ctx, p.Account.ID)
}

func hashFeedToken(raw string) []byte {
	h := sha256.Sum256([]byte(raw))
	return h[:]
}

// Feed is what a feed shows: the newest alerts of an account, or of one of
// its monitors (Monitor set).
type Feed struct {
	AccountID string
	// Since is when the token was made: the feed's updated time while it
	// holds no alert.
	Since   time.Time
	Monitor *Monitor
	Alerts  []Alert
	// Names are the account's monitors' names (or URLs), by id; alerts of
	// deleted monitors are named by their URL.
	Names map[string]string
}

// ReadFeed reads the feed token names: the account's alerts, or with a
// monitorID those of one of its monitors. An unknown, malformed or
// replaced token is unauthenticated, whichever it was; a monitor that is
// not the account's, or deleted, is not_found.
func (s *Service) ReadFeed(ctx context.Context, token, monitorID string) (*Feed, error) {
	if len(token) != feedTokenLength || !strings.HasPrefix(token, FeedTokenPrefix) {
		return nil, app.ErrUnauthenticated()
	}
	t, err := s.store.FindFeedTokenByHash(ctx, hashFeedToken(token))
	if app.ErrorCode(err) == app.CodeNotFound {
		return nil, app.ErrUnauthenticated()
	}
	if err != nil {
		return nil, err
	}
	f := &Feed{AccountID: t.AccountID, Since: t.CreatedAt, Names: map[string]string{}}
	if monitorID != "" {
		if !app.ValidID(monitorID) {
			return nil, app.Errorf(app.CodeNotFound, "monitor not found")
		}
		if f.Monitor, err = s.store.FindMonitor(ctx, t.AccountID, monitorID); err != nil {
			return nil, err
		}
		f.Names[f.Monitor.ID] = cmp.Or(f.Monitor.Name, f.Monitor.URL)
	} else {
		ms, err := s.store.FindMonitors(ctx, t.AccountID)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			f.Names[m.ID] = cmp.Or(m.Name, m.URL)
		}
	}
	f.Alerts, err = s.store.FindAlerts(ctx, AlertQuery{AccountID: t.AccountID, MonitorID: monitorID, Limit: FeedEntries, WithoutDiff: true})
	if err != nil {
		return nil, err
	}
	return f, nil
}
