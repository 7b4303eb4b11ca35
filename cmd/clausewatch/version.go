package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// version is set at link time (go build -ldflags "-X main.version=v1.2.3");
// otherwise the module's version from the build information, or "devel".
var version = ""

func versionFlags(fs *flag.FlagSet) {
	fs.Bool("json", false, "print one JSON object")
}

type versionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Modified  bool   `json:"modified"`
	GoVersion string `json:"goVersion"`
	Extractor string `json:"extractor"`
	Models    string `json:"models"`
}

func buildVersion() versionInfo {
	v := versionInfo{Version: version, Commit: "unknown", Extractor: extract.Version, Models: analyze.ModelVersion()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.GoVersion = bi.GoVersion
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "devel"
	}
	return v
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs, err := parseFlags("version", args, stderr)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "version", "version takes no arguments")
	}
	v := buildVersion()
	if flagBool(fs, "json") {
		return json.NewEncoder(stdout).Encode(v)
	}
	commit := v.Commit
	if v.Modified {
		commit += " (with uncommitted changes)"
	}
	_, err = fmt.Fprintf(stdout, "clausewatch %s\ncommit     %s\ngo         %s\nextractor  %s\nmodels     %s\n",
		v.Version, commit, v.GoVersion, v.Extractor, v.Models)
	return err
}
