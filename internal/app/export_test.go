package app

// FillAnalyses takes every place for an analysis, as long analyses would,
// until release is called.
func (s *Service) FillAnalyses() (release func()) {
	for range cap(s.analyses) {
		s.analyses <- struct{}{}
	}
	return func() {
		for range cap(s.analyses) {
			<-s.analyses
		}
	}
}

var CapDiff = capDiff
