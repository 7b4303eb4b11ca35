package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
)

func (s *server) handleKeyList(w http.ResponseWriter, r *http.Request) error {
	include, err := boolQuery(r, "includeRevoked")
	if err != nil {
		return err
	}
	keys, err := s.svc.FindKeys(r.Context(), include)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"keys": keys})
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
	return writeJSON(w, http.StatusCreated, k)
}

func (s *server) handleKeyRevoke(w http.ResponseWriter, r *http.Request) error {
	k, err := s.svc.RevokeKey(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, k)
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
