package rest

import (
	"errors"
	"io"
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
)

// maxWebhookBody bounds a provider event; Stripe's are far smaller.
const maxWebhookBody = 1 << 20

// handleWebhook passes the raw, unparsed body to billing, which verifies
// the signature over exactly these bytes before anything else.
func (s *server) handleWebhook(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return app.Errorf(app.CodeTooLarge, "event body exceeds %d bytes", maxWebhookBody)
	case err != nil:
		// A dropped connection or a broken body: nothing was verified or
		// applied, and the provider retries a delivery it saw fail.
		return &app.Error{Code: app.CodeInvalid, Message: "event body could not be read", Err: err}
	}
	if err := s.billing.HandlePaymentEvent(r.Context(), body, r.Header.Get("payment-signature")); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"received": true})
}
