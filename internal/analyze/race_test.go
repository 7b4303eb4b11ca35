//go:build race

package analyze

func init() { raceEnabled = true }
