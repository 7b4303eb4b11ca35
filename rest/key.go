package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/view"
)

// keyResponse is a key as the contract lists it (interface.md 2.1).
type keyResponse struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	KeyPrefix    string     `json:"keyPrefix"`
	Scopes       []string   `json:"scopes"`
	RequestCount int64      `json:"requestCount"`
	LastUsedAt   *view.Time `json:"lastUsedAt"`
	CreatedAt    view.Time  `json:"createdAt"`
	RevokedAt    *view.Time `json:"revokedAt"`
}

func newKeyResponse(k app.Key) keyResponse {
	scopes := k.Scopes
	if scopes == nil {
		scopes = app.Scopes{}
	}
	return keyResponse{ID: k.ID, Name: k.Name, KeyPrefix: k.Prefix, Scopes: scopes, RequestCount: k.RequestCount,
		LastUsedAt: view.TimePtr(k.LastUsedAt), CreatedAt: view.Time(k.CreatedAt), RevokedAt: view.TimePtr(k.RevokedAt)}
}

type keyListResponse struct {
	Keys []keyResponse `json:"keys"`
}

type createdKeyResponse struct {
	Key    keyResponse `json:"key"`
	RawKey string      `json:"rawKey"`
}

func (s *server) handleKeyList(w http.ResponseWriter, r *http.Request) error {
	include, err := boolQuery(r, "includeRevoked")
	if err != nil {
		return err
	}
	keys, err := s.svc.FindKeys(r.Context(), include)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, keyListResponse{Keys: view.MapAll(keys, newKeyResponse)})
}

func (s *server) handleKeyCreate(w http.ResponseWriter, r *http.Request) error {
	var in app.KeyCreate
	if err := decode(w, r, &in); err != nil {
		return err
	}
	k, err := s.svc.CreateKey(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, createdKeyResponse{Key: newKeyResponse(*k.Key), RawKey: k.RawKey})
}

func (s *server) handleKeyRevoke(w http.ResponseWriter, r *http.Request) error {
	k, err := s.svc.RevokeKey(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newKeyResponse(*k))
}

func boolQuery(r *http.Request, name string) (bool, error) {
	switch v := r.URL.Query().Get(name); v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, &app.Error{Code: app.CodeInvalid, Message: "invalid query parameter",
			Fields: []app.FieldError{{Field: name, Message: "must be true or false"}}}
	}
}
