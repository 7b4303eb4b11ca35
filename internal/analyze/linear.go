package analyze

import "fmt"

// linear is a loaded one-vs-rest linear model over hashed word n-grams with
// its weights stored feature by feature, only those that matter (see
// train.sparseRows): the form of the case detector and of the privacy
// detector.
type linear struct {
	f     FeatureConfig
	index []int32 // hash bucket -> compact row, -1 if unseen
	idf   []float32
	ptr   []uint32 // weights of row k: out[ptr[k]:ptr[k+1]], w[ptr[k]:ptr[k+1]]
	out   []uint8
	w     []float32
	bias  []float32
}

// SparseWeights is the stored form of such a model: Buckets are the active
// hash buckets, ascending, with their IDF; the weights of bucket k are
// W[Ptr[k]:Ptr[k+1]], for the outputs Out[Ptr[k]:Ptr[k+1]]; an output fires
// when its margin reaches Thr.
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

func (s *SparseWeights) linear() linear {
	return linear{f: s.Features, index: BucketIndex(s.Features, s.Buckets), idf: s.IDF, ptr: s.Ptr, out: s.Out, w: s.W, bias: s.Bias}
}

type linearScratch struct {
	feats  []feat
	margin []float32
	sc     scratch
}

// margins leaves the decision values of the tokens in s.margin.
func (l *linear) margins(toks []string, s *linearScratch) {
	s.feats, _ = l.f.extractRaw(s.feats[:0], toks, nil)
	s.feats = l.f.compact(s.feats, l.index, l.idf, int32(len(l.idf)), &s.sc)
	s.margin = append(s.margin[:0], l.bias...)
	for _, f := range s.feats {
		lo, hi := l.ptr[f.idx], l.ptr[f.idx+1]
		for k, o := range l.out[lo:hi] {
			s.margin[o] += l.w[lo+uint32(k)] * f.val
		}
	}
}
