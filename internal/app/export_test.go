package app

// FillAnalyses takes every place for an analysis, as long analyses would,
// until release is called.
func (s *Service) FillAnalyses() (release func()) {
	for range cap(s.analysisPlaces) {
		s.analysisPlaces <- struct{}{}
	}
	return func() {
		for range cap(s.analysisPlaces) {
			<-s.analysisPlaces
		}
	}
}
