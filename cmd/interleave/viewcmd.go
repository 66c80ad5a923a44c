package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/view"
	"interleave.dev/rt/wire"
)

// runView implements "interleave view": it writes the finding's HTML page
// from the page data the schedule file carries, in any directory, or has
// a replay of the schedule write it: for a file without the data (an
// older interleave wrote it), and with -replay.
func runView(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var out string
	var replay bool
	opts, file, code := parseReplay("view", viewUsage, args, io.Discard, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&out, "out", "", "where to write the page")
		fs.BoolVar(&replay, "replay", false, "replay the schedule to write the page, even when FILE holds it")
	})
	if file == "" {
		return code
	}
	if !filepath.IsAbs(file) && opts.Dir != "" {
		file = filepath.Join(opts.Dir, file) // as go's -C, the directory applies first
	}
	page := out
	if page == "" {
		page = strings.TrimSuffix(file, ".json") + ".html"
	}
	if !filepath.IsAbs(page) && opts.Dir != "" {
		page = filepath.Join(opts.Dir, page)
	}
	page, err := filepath.Abs(page)
	if err == nil {
		file, err = filepath.Abs(file)
	}
	if err != nil {
		fmt.Fprintf(stderr, "interleave view: %v\n", err)
		return 2
	}
	s, err := wire.ReadSchedule(file)
	if err != nil {
		fmt.Fprintf(stderr, "interleave view: %v\n", err)
		return 2
	}
	os.Remove(page) // a page left from an earlier run must not pass for this one's
	if len(s.View) > 0 && !replay {
		if err := writePage(page, file, s.View); err != nil {
			fmt.Fprintf(stderr, "interleave view: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "view: %s\n", page)
		return 0
	}
	// An older file: the page comes from a replay, which needs the module
	// and the package the schedule came from.
	why := "replaying " + file
	if len(s.View) == 0 {
		why = fmt.Sprintf("%s holds no page data (an older interleave wrote it), so view replays it, in the module of %s (-C sets its directory)", file, s.Package)
	}
	opts.Config.View = page
	res, err := driver.Replay(ctx, file, opts)
	if err != nil {
		fmt.Fprintf(stderr, "interleave view: %s; the replay failed:\n", why)
		return finish(res, err, stderr)
	}
	if _, err := os.Stat(page); err != nil {
		fmt.Fprintf(stderr, "interleave view: %s; the replay reproduced no finding, so there is no page to show (interleave replay %s shows what it did)\n", why, file)
		return 1
	}
	fmt.Fprintf(stdout, "view: %s\n", page)
	return 0
}

// writePage writes to path the page of the schedule file at file, from
// the page data it carries; the page's replay line names the file where
// it is now.
func writePage(path, file string, data json.RawMessage) error {
	var p view.Page
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("%s: the finding's page: %w", file, err)
	}
	p.Schedule = file
	b, err := view.Render(&p)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("writing the page: %w", err)
	}
	return nil
}
