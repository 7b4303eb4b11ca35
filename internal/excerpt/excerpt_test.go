package excerpt

import "testing"

func TestCutCountsCharactersNotBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"héllo", 5, "héllo"},
		{"héllo wörld", 5, "héllo…"},
		{"🚀🚀🚀🚀", 2, "🚀🚀…"},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
