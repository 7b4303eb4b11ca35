package model

import "math"

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

// Feature is one weighed feature: a model's compact row and its value.
type Feature struct {
	Row uint32
	Val float32
}

// Scratch is the memory scoring reuses from one text to the next; one
// goroutine uses it at a time.
type Scratch struct {
	feats  []Feature
	buf    []byte
	stamp  []uint32
	pos    []int32
	gen    uint32
	margin []float32
}

// extractRaw appends the hashed features of a token sequence to dst, one
// entry per occurrence (its hash bucket in Row), unsorted. buf is scratch
// space.
func (c *FeatureConfig) extractRaw(dst []Feature, toks []string, buf []byte) ([]Feature, []byte) {
	half := uint32(1) << (c.Bits - 1)
	mask := half - 1
	for i, t := range toks {
		h := fnvAdd(fnvOffset, t)
		dst = append(dst, Feature{h & mask, 1})
		if c.WordNgrams >= 2 && i+1 < len(toks) {
			h2 := fnvAdd(fnvAdd(h^0x9e37, " "), toks[i+1])
			dst = append(dst, Feature{h2 & mask, 1})
			if c.WordNgrams >= 3 && i+2 < len(toks) {
				h3 := fnvAdd(fnvAdd(h2^0x79b9, " "), toks[i+2])
				dst = append(dst, Feature{h3 & mask, 1})
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
					dst = append(dst, Feature{half | (h^uint32(n)*0x27d4eb2d)&mask, 1})
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
		out[i] = f.Row
	}
	return out
}

// BucketIndex maps each hash bucket of the feature space to its compact
// row among a model's active buckets, -1 where the model has none.
func BucketIndex(f FeatureConfig, buckets []uint32) []int32 {
	index := make([]int32, 1<<f.Bits)
	for i := range index {
		index[i] = -1
	}
	for k, b := range buckets {
		index[b] = int32(k)
	}
	return index
}

// Features returns the features of toks as a model with the given bucket
// index (BucketIndex), IDF and first char-block row weighs them: features
// unseen in training dropped, duplicates merged, sublinear TF x IDF, each
// block L2-normalised. The result lives in s until its next use.
func (c *FeatureConfig) Features(toks []string, index []int32, idf []float32, firstChar int32, s *Scratch) []Feature {
	s.feats, s.buf = c.extractRaw(s.feats[:0], toks, s.buf)
	s.feats = c.compact(s.feats, index, idf, firstChar, s)
	return s.feats
}

// compact maps raw hashed features to compact rows, dropping features unseen
// in training and merging duplicates in O(n) with a generation-stamped
// scratch table, then weighs them. firstChar is the first compact row of
// the char block.
func (c *FeatureConfig) compact(fs []Feature, index []int32, idf []float32, firstChar int32, sc *Scratch) []Feature {
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
		k := index[f.Row]
		if k < 0 {
			continue
		}
		if sc.stamp[k] == sc.gen {
			out[sc.pos[k]].Val++
			continue
		}
		sc.stamp[k] = sc.gen
		sc.pos[k] = int32(len(out))
		out = append(out, Feature{uint32(k), 1})
	}
	var nw, nc float32
	for i := range out {
		k := out[i].Row
		v := idf[k]
		if out[i].Val > 1 {
			v *= 1 + float32(math.Log(float64(out[i].Val)))
		}
		out[i].Val = v
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
		if int32(out[i].Row) >= firstChar {
			out[i].Val *= scw
		} else {
			out[i].Val *= sw
		}
	}
	return out
}
