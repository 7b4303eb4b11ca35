// Package excerpt cuts text short for a person to read: an error message
// that echoes a caller's input, a log row, a prompt, a terminal line. It
// imports nothing of clausewatch, so the engines below app (llm) and app
// itself cut alike.
package excerpt

// Cut returns s cut to its first n characters (Unicode code points) and
// "…" when it is longer.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for at := range s {
		if i == n {
			return s[:at] + "…"
		}
		i++
	}
	return s
}
