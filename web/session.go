package web

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"time"

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
// reaches next unauthenticated. The cookie is for account sessions only: an
// API key found in it is ignored.
func WithSessionCookie(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tok := cookieSession(r); tok != "" {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		next.ServeHTTP(w, r)
	})
}

func cookieSession(r *http.Request) string {
	if r.Method != http.MethodPost || r.Header.Get("Authorization") != "" || !isJSON(r) {
		return ""
	}
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
// cross-site form cannot sign a visitor in to someone else's account.
func (s *server) signIn(w http.ResponseWriter, r *http.Request) {
	if !isJSON(r) {
		writeError(w, http.StatusUnsupportedMediaType, "send the token as JSON: {\"token\": \"...\"}")
		return
	}
	var in struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "the body is not {\"token\": \"...\"}")
		return
	}
	tok := strings.TrimSpace(in.Token)
	p, err := s.svc.Authenticate(r.Context(), tok)
	if app.ErrorCode(err) == app.CodeUnauthenticated || err == nil && p.Key != nil {
		writeError(w, http.StatusUnauthorized, "this sign-in token is not valid or has expired")
		return
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "portal: sign in", "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	c := &http.Cookie{
		Name: CookieName, Value: tok, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	}
	// The cookie lasts as long as the token: past that the server refuses it
	// anyway, and the portal shows its sign-in page.
	if exp, ok := expiry(c.Value); ok {
		c.Expires = exp
	}
	http.SetCookie(w, c)
	writeJSON(w, http.StatusOK, map[string]string{"email": p.Account.Email})
}

// signOut clears the cookie. It needs no credential: forgetting one is harmless.
func signOut(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	w.WriteHeader(http.StatusNoContent)
}

// expiry reads the exp claim of a JWT that Authenticate has already verified.
func expiry(token string) (time.Time, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return time.Time{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return time.Time{}, false
	}
	var claims struct {
		Exp int64 `json:"exp"`
	}
	if json.Unmarshal(payload, &claims) != nil || claims.Exp == 0 {
		return time.Time{}, false
	}
	return time.Unix(claims.Exp, 0), true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers in the REST error shape, which the portal shows in words.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
