package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"interleave.dev/internal/driver"
)

// runReplay implements "interleave replay".
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var common commonFlags
	fs := newFlagSet("replay", replayUsage, stderr)
	common.define(fs)
	files, testArgs, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(files) != 1 {
		return usageError(stderr, "interleave replay: want exactly one schedule file")
	}
	opts := common.options(stdout, stderr)
	opts.TestArgs = testArgs
	opts.Config.ScheduleDir = common.scheduleDir
	out, err := driver.Replay(ctx, files[0], opts)
	return finish(out, err, stderr)
}
