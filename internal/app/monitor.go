package app

import "context"

// Monitoring answers every monitor and alert operation until monitoring
// lands: the scope check is already the real one, so keys without the
// monitor scope get the contract's 403 today.
func (s *Service) Monitoring(ctx context.Context) error {
	if err := Require(ctx, ScopeOf(OpMonitor)); err != nil {
		return err
	}
	return Errorf(CodeNotImplemented, "monitoring is not available yet")
}
