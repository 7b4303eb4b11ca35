package main

import (
	"context"
	"errors"
	"io"
)

func runExtract(context.Context, []string, func(string) string, io.Writer, io.Writer) error {
	return errors.New("extract: not available yet")
}

func runAnalyze(context.Context, []string, func(string) string, io.Reader, io.Writer, io.Writer) error {
	return errors.New("analyze: not available yet")
}

func runClassify(io.Reader, io.Writer) error { return errors.New("classify: not available yet") }
