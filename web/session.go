package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/clausewatch/clausewatch/internal/app"
)

// CookieName is the cookie that carries the portal's account-session token.
const CookieName = "clausewatch_session"

// WithSessionCookie lets the portal's cookie stand for the bearer credential
// of next (the /graphql handler), but only on requests a cross-site page
// cannot make with it: a POST whose body is declared JSON (an HTML form
// cannot declare it, and a cross-site fetch that does needs a CORS preflight
// nobody grants) and that carries no Authorization header of its own (the
// header wins). A GET or a form-encoded POST with only the cookie therefore
// reaches next unauthenticated. A request with the cookie from another
// origin (a sibling host is same-site, so the browser sends the cookie) is
// refused outright, whatever its method: see fromOwnPage. The cookie is for
// account sessions only: an API key found in it is ignored. o is the
// Options the portal is registered with.
func WithSessionCookie(o Options, next http.Handler) http.Handler {
	s := newServer(o)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := cookieSession(r)
		if tok == "" {
			next.ServeHTTP(w, r)
			return
		}
		acts := r.Method == http.MethodPost && isJSON(r)
		if !s.fromOwnPage(r, acts) {
			writeGraphQLError(w, http.StatusForbidden, "FORBIDDEN",
				"the session cookie is accepted only from the portal's own pages; other clients send Authorization: Bearer")
			return
		}
		if acts {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		next.ServeHTTP(w, r)
	})
}

// cookieSession is the session cookie's token as the request's credential:
// none when the request carries its own.
func cookieSession(r *http.Request) string {
	if r.Header.Get("Authorization") != "" {
		return ""
	}
	return sessionCookie(r)
}

// sessionCookie is the token in the session cookie; an API key is not one.
func sessionCookie(r *http.Request) string {
	c, err := r.Cookie(CookieName)
	if err != nil || strings.HasPrefix(c.Value, app.KeyPrefix) {
		return ""
	}
	return c.Value
}

func isJSON(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// signIn takes an account-session token (the one `make run` prints in the
// portal link, or an identity provider's) in a JSON body, checks it the way
// every request is checked (Service.Authenticate), and moves it into an
// HttpOnly cookie, so the page's script never holds it again. JSON only, so a
// cross-site form cannot sign a visitor in to someone else's account. Nor
// can a link: when the browser is signed in to another account already, the
// token replaces it only with "switchAccount": true, which the portal sends
// once the person has seen both addresses and agreed (409 until then).
func (s *server) signIn(w http.ResponseWriter, r *http.Request) {
	if !isJSON(r) {
		writeError(w, http.StatusUnsupportedMediaType, "send the token as JSON: {\"token\": \"...\"}")
		return
	}
	var in struct {
		Token         string `json:"token"`
		SwitchAccount bool   `json:"switchAccount"`
	}
	if err := decodeStrict(http.MaxBytesReader(w, r.Body, 64<<10), &in); err != nil {
		writeError(w, http.StatusBadRequest, "the body is not {\"token\": \"...\"}")
		return
	}
	tok := strings.TrimSpace(in.Token)
	p, err := s.session(r.Context(), tok)
	if app.ErrorCode(err) == app.CodeUnauthenticated {
		writeError(w, http.StatusUnauthorized, "this sign-in token is not valid or has expired")
		return
	}
	if err != nil {
		s.internal(w, r, "portal: sign in", err)
		return
	}
	if !in.SwitchAccount {
		current, err := s.session(r.Context(), sessionCookie(r))
		if err != nil && app.ErrorCode(err) != app.CodeUnauthenticated {
			s.internal(w, r, "portal: sign in", err)
			return
		}
		if err == nil && current.Account.ID != p.Account.ID {
			writeJSON(w, http.StatusConflict, map[string]string{
				"error":        "this browser is signed in to another account: confirm the switch",
				"currentEmail": current.Account.Email,
				"newEmail":     p.Account.Email,
			})
			return
		}
	}
	c := s.cookie(r, tok)
	// The cookie lasts as long as the token: past that the server refuses it
	// anyway, and the portal shows its sign-in page.
	c.Expires = p.Expires
	http.SetCookie(w, c)
	writeJSON(w, http.StatusOK, map[string]string{"email": p.Account.Email})
}

// decodeStrict decodes exactly one JSON value into v: a key v does not have,
// or anything after the value but space, is an error, so a body means one
// thing to every reader of it.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// session authenticates an account-session token; API keys are not one.
func (s *server) session(ctx context.Context, tok string) (*app.Principal, error) {
	p, err := s.svc.Authenticate(ctx, tok)
	if err == nil && p.Key != nil {
		return nil, app.ErrUnauthenticated()
	}
	return p, err
}

// signOut ends the cookie's session on the server, on every replica
// (Service.SignOut), then clears the cookie. A missing or dead cookie has
// nothing to end. When the revocation cannot be stored the cookie stays, so
// the person can try again rather than believe they are signed out.
func (s *server) signOut(w http.ResponseWriter, r *http.Request) {
	if tok := sessionCookie(r); tok != "" {
		if err := s.svc.SignOut(r.Context(), tok); err != nil {
			s.internal(w, r, "portal: sign out", err)
			return
		}
	}
	c := s.cookie(r, "")
	c.MaxAge = -1
	http.SetCookie(w, c)
	w.WriteHeader(http.StatusNoContent)
}

// cookie is the session cookie holding tok: Secure whenever the browser
// reached the portal over https, here or at a proxy in front (see https).
func (s *server) cookie(r *http.Request, tok string) *http.Cookie {
	return &http.Cookie{
		Name: CookieName, Value: tok, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.https(r),
	}
}

func (s *server) internal(w http.ResponseWriter, r *http.Request, msg string, err error) {
	s.log.ErrorContext(r.Context(), msg, "err", err)
	writeError(w, http.StatusInternalServerError, "internal error")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeGraphQLError answers in the GraphQL error shape, which /graphql's
// clients read.
func writeGraphQLError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"errors": []any{map[string]any{"message": msg, "extensions": map[string]string{"code": code}}}})
}

// writeError answers in the REST error shape, which the portal shows in words.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
