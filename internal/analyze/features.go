package analyze

import (
	"math"
)

// FeatureConfig describes how a sentence becomes a sparse vector. It is stored
// in the model so inference extracts exactly what training saw.
type FeatureConfig struct {
	Bits       uint // hash space is 1<<Bits; word features in the lower half, char in the upper
	WordNgrams int  // 1 = unigrams, 2 = uni+bigrams, 3 = up to trigrams
	CharMin    int  // char n-gram range over the space-joined tokens (0 = off)
	CharMax    int
	CharWeight float32 // weight of the char block relative to the word block (blocks are L2-normalised separately)
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

func fnvAdd(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime
	}
	return h
}

// feat is one hashed feature with its term frequency.
type feat struct {
	idx uint32
	val float32
}

// extractRaw appends the hashed features of a token sequence to dst, one
// entry per occurrence, unsorted. buf is scratch space.
func (c *FeatureConfig) extractRaw(dst []feat, toks []string, buf []byte) ([]feat, []byte) {
	half := uint32(1) << (c.Bits - 1)
	mask := half - 1
	for i, t := range toks {
		h := fnvAdd(fnvOffset, t)
		dst = append(dst, feat{h & mask, 1})
		if c.WordNgrams >= 2 && i+1 < len(toks) {
			h2 := fnvAdd(fnvAdd(h^0x9e37, " "), toks[i+1])
			dst = append(dst, feat{h2 & mask, 1})
			if c.WordNgrams >= 3 && i+2 < len(toks) {
				h3 := fnvAdd(fnvAdd(h2^0x79b9, " "), toks[i+2])
				dst = append(dst, feat{h3 & mask, 1})
			}
		}
	}
	if c.CharMin > 0 {
		buf = buf[:0]
		buf = append(buf, ' ')
		for _, t := range toks {
			buf = append(buf, t...)
			buf = append(buf, ' ')
		}
		for i := 0; i < len(buf); i++ {
			h := uint32(fnvOffset ^ 0x5bd1)
			for n := 1; n <= c.CharMax && i+n <= len(buf); n++ {
				h ^= uint32(buf[i+n-1])
				h *= fnvPrime
				if n >= c.CharMin {
					dst = append(dst, feat{half | (h^uint32(n)*0x27d4eb2d)&mask, 1})
				}
			}
		}
	}
	return dst, buf
}

// HashFeatures returns the hashed feature index of every n-gram occurrence
// in toks, unsorted, exactly as the classifier sees them: training counts
// and weighs them.
func (c *FeatureConfig) HashFeatures(toks []string) []uint32 {
	fs, _ := c.extractRaw(nil, toks, nil)
	out := make([]uint32, len(fs))
	for i, f := range fs {
		out[i] = f.idx
	}
	return out
}

// compact maps raw hashed features to compact rows, dropping features unseen
// in training and merging duplicates in O(n) with a generation-stamped
// scratch table, then weighs them like weigh. firstChar is the first compact
// row of the char block.
func (c *FeatureConfig) compact(fs []feat, index []int32, idf []float32, firstChar int32, sc *scratch) []feat {
	if len(sc.stamp) != len(idf) {
		sc.stamp = make([]uint32, len(idf))
		sc.pos = make([]int32, len(idf))
		sc.gen = 0
	}
	sc.gen++
	if sc.gen == 0 {
		clear(sc.stamp)
		sc.gen = 1
	}
	out := fs[:0]
	for _, f := range fs {
		k := index[f.idx]
		if k < 0 {
			continue
		}
		if sc.stamp[k] == sc.gen {
			out[sc.pos[k]].val++
			continue
		}
		sc.stamp[k] = sc.gen
		sc.pos[k] = int32(len(out))
		out = append(out, feat{uint32(k), 1})
	}
	var nw, nc float32
	for i := range out {
		k := out[i].idx
		v := idf[k]
		if out[i].val > 1 {
			v *= 1 + float32(math.Log(float64(out[i].val)))
		}
		out[i].val = v
		if int32(k) >= firstChar {
			nc += v * v
		} else {
			nw += v * v
		}
	}
	var sw, scw float32
	if nw > 0 {
		sw = 1 / float32(math.Sqrt(float64(nw)))
	}
	if nc > 0 {
		scw = c.CharWeight / float32(math.Sqrt(float64(nc)))
	}
	for i := range out {
		if int32(out[i].idx) >= firstChar {
			out[i].val *= scw
		} else {
			out[i].val *= sw
		}
	}
	return out
}
