package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// EachLine skips blank lines and names the file and the line it refuses.
func TestEachLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(path, []byte("{\"n\":1}\n\n  \n{\"n\":2}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []int
	err := EachLine(path, func(line []byte) error {
		var v struct{ N int }
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		got = append(got, v.N)
		return nil
	})
	if len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("got %v, want [1 2]", got)
	}
	if err == nil || !strings.Contains(err.Error(), path+":5:") {
		t.Errorf("err %v, want it to name %s:5", err, path)
	}
	if err := EachLine(filepath.Join(t.TempDir(), "none"), nil); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
