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
	opts, file, code := parseReplay("replay", replayUsage, args, stdout, stderr, nil)
	if file == "" {
		return code
	}
	out, err := driver.Replay(ctx, file, opts)
	return finish(out, err, stderr)
}

// parseReplay parses the arguments of a command that replays one schedule
// file (replay, view); define adds the command's own flags. It returns the
// driver options, the file and the directory of -C, or an empty file and
// the exit status.
func parseReplay(name, usage string, args []string, stdout, stderr io.Writer, define func(*flag.FlagSet)) (opts driver.Options, file string, code int) {
	var common commonFlags
	fs := newFlagSet(name, usage, stderr)
	common.define(fs)
	if define != nil {
		define(fs)
	}
	files, testArgs, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return opts, "", 0
		}
		return opts, "", 2
	}
	if len(files) != 1 {
		return opts, "", usageError(stderr, "interleave %s: want exactly one schedule file", name)
	}
	opts = common.options(stdout, stderr)
	opts.TestArgs = testArgs
	opts.Config.ScheduleDir = common.scheduleDir
	return opts, files[0], 0
}
