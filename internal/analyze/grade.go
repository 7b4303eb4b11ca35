package analyze

// Score and grade weights; see Grade.
const (
	penaltyBlocker     = 25
	penaltyBad         = 10
	penaltyBadExtra    = 2 // per further bad finding in the same category
	penaltyBadExtraMax = 4
	penaltyNeutral     = 2
	bonusGood          = 4
	bonusGoodMax       = 20
)

// Grade computes the score (0..100) and the letter grade (A..E) of a set of
// findings.
//
// Each category counts once at its worst severity, so a long document is not
// punished for repeating itself:
//
//	score = 100
//	      - 25 for each category with a blocker finding
//	      - 10 for each category with a bad finding, plus 2 for every further
//	        bad finding of that category (at most 4 extra)
//	      -  2 for each category whose worst finding is neutral
//	      +  4 for each category with a good finding and no bad or blocker
//	        finding (at most +20 in total)
//	clamped to 0..100.
//
// Grade: A >= 85, B >= 70, C >= 55, D >= 40, E below 40. A document with a
// blocker finding (binding arbitration, sale of personal data) is graded D
// at best.
func Grade(findings []Finding) (score int, grade string) {
	worst := map[string]int{}
	bads := map[string]int{}
	good := map[string]bool{}
	for _, f := range findings {
		r := severityRank(f.Severity)
		if w, ok := worst[f.Category]; !ok || r < w {
			worst[f.Category] = r
		}
		if f.Severity == SeverityBad {
			bads[f.Category]++
		}
		if f.Severity == SeverityGood {
			good[f.Category] = true
		}
	}
	s := 100
	bonus := 0
	blocker := false
	for _, cat := range Categories {
		w, ok := worst[cat]
		if !ok {
			continue
		}
		switch w {
		case 0:
			s -= penaltyBlocker
			blocker = true
		case 1:
			s -= penaltyBad + min((bads[cat]-1)*penaltyBadExtra, penaltyBadExtraMax)
		case 2:
			s -= penaltyNeutral
		}
		if w > 1 && good[cat] {
			bonus += bonusGood
		}
	}
	s += min(bonus, bonusGoodMax)
	s = max(0, min(100, s))
	switch {
	case s >= 85:
		grade = "A"
	case s >= 70:
		grade = "B"
	case s >= 55:
		grade = "C"
	case s >= 40:
		grade = "D"
	default:
		grade = "E"
	}
	if blocker && grade < "D" {
		grade = "D"
	}
	return s, grade
}
