package corpus

import (
	"bytes"
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

// WriteLines writes what EachLine reads back, one value a line, without
// escaping <, > and &.
func TestWriteLines(t *testing.T) {
	type row struct {
		N int
		S string
	}
	in := []row{{1, "a < b & c > d"}, {2, "é"}}
	var buf bytes.Buffer
	if err := WriteLines(&buf, in); err != nil {
		t.Fatal(err)
	}
	want := "{\"N\":1,\"S\":\"a < b & c > d\"}\n{\"N\":2,\"S\":\"é\"}\n"
	if buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	path := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out []row
	if err := EachLine(path, func(line []byte) error {
		var r row
		err := json.Unmarshal(line, &r)
		out = append(out, r)
		return err
	}); err != nil || len(out) != 2 || out[0] != in[0] || out[1] != in[1] {
		t.Errorf("read back %v, %v; want %v", out, err, in)
	}
}

// TextHash is the labels' key: 16 hex digits, the first 8 bytes of SHA-256.
func TestTextHash(t *testing.T) {
	if got, want := TextHash("abc"), "ba7816bf8f01cfea"; got != want {
		t.Errorf("TextHash(abc) = %s, want %s", got, want)
	}
}
