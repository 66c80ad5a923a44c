package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"interleave.dev/internal/driver"
)

// runView implements "interleave view": it replays a schedule file and
// has the replay write the finding's HTML page.
func runView(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var out string
	opts, file, code := parseReplay("view", viewUsage, args, io.Discard, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&out, "out", "", "where to write the page")
	})
	if file == "" {
		return code
	}
	page := out
	if page == "" {
		page = strings.TrimSuffix(file, ".json") + ".html"
	}
	if !filepath.IsAbs(page) && opts.Dir != "" {
		page = filepath.Join(opts.Dir, page) // as go's -C, the directory applies first
	}
	page, err := filepath.Abs(page)
	if err != nil {
		fmt.Fprintf(stderr, "interleave view: %v\n", err)
		return 2
	}
	os.Remove(page) // a page left from an earlier run must not pass for this one's
	opts.Config.View = page
	res, err := driver.Replay(ctx, file, opts)
	if err != nil {
		return finish(res, err, stderr)
	}
	if _, err := os.Stat(page); err != nil {
		fmt.Fprintf(stderr, "interleave view: the replay of %s reproduced no finding, so there is no page to show (interleave replay %s shows what it did)\n", file, file)
		return 1
	}
	fmt.Fprintf(stdout, "view: %s\n", page)
	return 0
}
