package train

import (
	"math"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// feat is one hashed feature with its term frequency, then its weight.
type feat struct {
	idx uint32
	val float32
}

// countFeatures is the hashed features of toks sorted by index, each with
// its count (no index exists yet while training).
func countFeatures(c *model.FeatureConfig, toks []string) []feat {
	var dst []feat
	for _, idx := range c.HashFeatures(toks) {
		dst = append(dst, feat{idx, 1})
	}
	slices.SortFunc(dst, func(a, b feat) int {
		switch {
		case a.idx < b.idx:
			return -1
		case a.idx > b.idx:
			return 1
		}
		return 0
	})
	out := dst[:0]
	for _, f := range dst {
		if n := len(out); n > 0 && out[n-1].idx == f.idx {
			out[n-1].val++
			continue
		}
		out = append(out, f)
	}
	return out
}

// weigh applies sublinear tf, idf (looked up through the compact index) and
// per-block L2 normalisation. Features without an index (unseen in training)
// are dropped. On return idx holds compact indices.
func weigh(c *model.FeatureConfig, fs []feat, index []int32, idf []float32) []feat {
	half := uint32(1) << (c.Bits - 1)
	out := fs[:0]
	var nw, nc float64
	for _, f := range fs {
		k := index[f.idx]
		if k < 0 {
			continue
		}
		v := (1 + float32(math.Log(float64(f.val)))) * idf[k]
		if f.idx >= half {
			nc += float64(v) * float64(v)
		} else {
			nw += float64(v) * float64(v)
		}
		out = append(out, feat{f.idx, v})
	}
	sw, sc := float32(0), float32(0)
	if nw > 0 {
		sw = float32(1 / math.Sqrt(nw))
	}
	if nc > 0 {
		sc = c.CharWeight / float32(math.Sqrt(nc))
	}
	for i := range out {
		if out[i].idx >= half {
			out[i].val *= sc
		} else {
			out[i].val *= sw
		}
		out[i].idx = uint32(index[out[i].idx])
	}
	return out
}
