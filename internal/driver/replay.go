package driver

import (
	"context"
	"fmt"
	"path/filepath"

	"interleave.dev/rt/wire"
)

// Replay runs the interleaving recorded in the schedule file at path again:
// the schedule's test, in its package (resolved from opts.Dir's module, or
// "./..." when the file names no package), with strategy "replay" and the
// detector settings of the recording run. opts.Patterns and opts.Config are
// replaced; a file that cannot be read or is not a schedule is an error. A
// relative path is relative to opts.Dir.
func Replay(ctx context.Context, path string, opts Options) (*Outcome, error) {
	if !filepath.IsAbs(path) && opts.Dir != "" {
		path = filepath.Join(opts.Dir, path) // as go's -C, the directory applies first
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", path, err)
	}
	s, err := wire.ReadSchedule(abs)
	if err != nil {
		return nil, err
	}
	opts.Patterns = []string{s.Package}
	if s.Package == "" {
		opts.Patterns = []string{"./..."}
	}
	opts.GoFlags = append(append([]string(nil), opts.GoFlags...), "-run="+wire.RunPattern(s.Test), "-count=1")
	opts.Config = wire.Config{
		Strategy: "replay",
		Replay:   abs,
		Seed:     s.Seed,
		NoRace:   !s.Race,
		NoLeaks:  !s.Leaks,
		MaxSteps: s.MaxSteps,

		MaxGoroutines: s.MaxGoroutines,
		MaxChoices:    s.MaxChoices,
		MaxObjects:    s.MaxObjects,
		Package:       s.Package,
		ScheduleDir:   opts.Config.ScheduleDir,
		View:          opts.Config.View,
	}
	return Test(ctx, opts)
}
