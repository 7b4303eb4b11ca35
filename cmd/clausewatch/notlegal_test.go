package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A text with no clause gets no grade: analyze exits 1 with the message.
func TestAnalyzeNotALegalDocument(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"analyze", "-"}, func(string) string { return "" }, strings.NewReader("hi\n"), &out, &errb)
	if got := exitCode(err, &errb); got != exitError || !strings.Contains(errb.String(), "not a legal document") || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and the message", got, out.String(), errb.String())
	}
}
