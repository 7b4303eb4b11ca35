package app

import "context"

// HandlePaymentEvent verifies and applies one payment-provider event.
func (s *Service) HandlePaymentEvent(ctx context.Context, payload []byte, signature string) error {
	return Errorf(CodeNotImplemented, "payments are not available yet")
}
