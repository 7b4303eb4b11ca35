package app

// FillAnalyses takes every place for an analysis, as long analyses would,
// until release is called.
func (s *Service) FillAnalyses() (release func()) {
	n := int64(0)
	for s.places.count.TryAcquire(1) {
		n++
	}
	return func() { s.places.count.Release(n) }
}
