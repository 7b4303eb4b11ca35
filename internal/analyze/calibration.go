package analyze

import (
	_ "embed"
	"strconv"
	"strings"
)

// calibrationTSV is written by cmd/eval-cases -calibrate: for each case
// (and each category's findings of a category alone) the share of its
// findings, on the labelled sentences of testdata/cases, whose sentence
// states its case with its rating, from case models that never saw the
// sentence's service, shrunk toward its rating's share.
//
//go:embed calibration.tsv
var calibrationTSV string

// calibration maps CalibrationKey to a probability; ratingPrior maps a
// rating to the probability of a key the labelled set never found.
var calibration, ratingPrior = parseCalibration(calibrationTSV)

func parseCalibration(tsv string) (byKey, byRating map[string]float64) {
	byKey, byRating = map[string]float64{}, map[string]float64{}
	for _, line := range strings.Split(tsv, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue // the header
		}
		if f[0] == "*" {
			byRating[f[1]] = p
		} else {
			byKey[f[0]] = p
		}
	}
	return byKey, byRating
}

// CalibrationKey is what a finding's probability is looked up by: its case,
// or for a finding of a category alone its category and severity.
func CalibrationKey(f Finding) string {
	if f.Case != "" {
		return f.Case
	}
	return "category:" + f.Category + "/" + f.Severity
}

// Probability is the calibrated probability that a finding's sentence
// states its case with its rating (calibration.tsv).
func Probability(f Finding) float64 {
	if p, ok := calibration[CalibrationKey(f)]; ok {
		return p
	}
	return ratingPrior[f.Severity]
}
