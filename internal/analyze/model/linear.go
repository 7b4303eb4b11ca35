package model

import "fmt"

// SparseWeights is the stored form of a one-vs-rest linear model over
// hashed word n-grams, the case detector's and the privacy detector's:
// Buckets are the active hash buckets, ascending, with their IDF; the
// weights of bucket k are W[Ptr[k]:Ptr[k+1]], for the outputs
// Out[Ptr[k]:Ptr[k+1]]; an output fires when its margin reaches Thr.
type SparseWeights struct {
	Features FeatureConfig
	Buckets  []uint32
	IDF      []float32
	Ptr      []uint32
	Out      []uint8
	W        []float32
	Bias     []float32
	Thr      []float32
}

// check reports whether the stored weights are consistent with n outputs.
func (s *SparseWeights) check(n int) error {
	if n == 0 || n > 256 || len(s.Bias) != n || len(s.Thr) != n || len(s.IDF) != len(s.Buckets) ||
		len(s.Ptr) != len(s.Buckets)+1 || len(s.Out) != len(s.W) || int(s.Ptr[len(s.Buckets)]) != len(s.W) ||
		s.Features.CharMin != 0 || s.Features.Bits < 8 || s.Features.Bits > 26 {
		return fmt.Errorf("inconsistent weights")
	}
	for _, o := range s.Out {
		if int(o) >= n {
			return fmt.Errorf("inconsistent weights")
		}
	}
	return nil
}

// Linear is such a model ready to score.
type Linear struct {
	f     FeatureConfig
	index []int32 // hash bucket -> compact row, -1 if unseen
	idf   []float32
	ptr   []uint32
	out   []uint8
	w     []float32
	bias  []float32
}

// Linear prepares the weights for scoring.
func (s *SparseWeights) Linear() *Linear {
	return &Linear{f: s.Features, index: BucketIndex(s.Features, s.Buckets), idf: s.IDF, ptr: s.Ptr, out: s.Out, w: s.W, bias: s.Bias}
}

// Margins returns the decision values of the tokens, one per output; they
// live in s until its next use.
func (l *Linear) Margins(toks []string, s *Scratch) []float32 {
	feats := l.f.Features(toks, l.index, l.idf, int32(len(l.idf)), s)
	s.margin = append(s.margin[:0], l.bias...)
	for _, f := range feats {
		lo, hi := l.ptr[f.Row], l.ptr[f.Row+1]
		for k, o := range l.out[lo:hi] {
			s.margin[o] += l.w[lo+uint32(k)] * f.Val
		}
	}
	return s.margin
}
