//go:build race

package extract

func init() { raceEnabled = true }
