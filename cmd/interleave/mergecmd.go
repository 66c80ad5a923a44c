package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"interleave.dev/internal/driver"
)

// runMerge implements "interleave merge".
func runMerge(args []string, stdout, stderr io.Writer) int {
	var out string
	fs := newFlagSet("merge", mergeUsage, stderr)
	fs.StringVar(&out, "o", "", "directory to copy the merged findings' schedule files to")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		return usageError(stderr, "interleave merge: name the shards' schedule directories or results files")
	}
	m, err := driver.Merge(fs.Args(), out)
	if err != nil {
		fmt.Fprintf(stderr, "interleave: %v\n", err)
		return driver.ExitUsage
	}
	m.WriteReport(stdout)
	return (&driver.Outcome{Results: m.Results}).ExitCode()
}
