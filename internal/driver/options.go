package driver

import (
	"io"
	"io/fs"

	"interleave.dev/rt/wire"
)

// Options configures a run of Test or Replay.
type Options struct {
	// Dir is the directory the run starts from, as the current directory
	// of go test (default ".").
	Dir string
	// Patterns are the package patterns to test (default ".").
	Patterns []string
	// Tags is the value of go test's -tags flag; it also selects the files
	// the driver loads and instruments.
	Tags string
	// GoFlags are further go test flags (build and test flags, such as
	// "-run=TestX", "-v", "-count=1"), passed through in order.
	GoFlags []string
	// TestArgs are the arguments after -args, passed to the test binaries.
	TestArgs []string
	// Config is the exploration configuration handed to the test binaries.
	// The driver sets Results, and ScheduleDir when empty.
	Config wire.Config
	// Scope selects the dependency modules instrumented besides the main
	// module; the zero Scope selects every module but the standard library.
	Scope Scope
	// DepWarnings prints every instrumenter warning about dependency
	// modules; by default they are summed up in one line per module.
	DepWarnings bool
	// Instrument rewrites one file; it is required.
	Instrument InstrumentFunc
	// InstrumentMain, when set, rewrites the files of the main module (and
	// files named on the command line) instead of Instrument: the code
	// under test, whose functions report symbolic values to strategy mpc
	// (internal/instrument's Options.Symbolic), unlike its dependencies'.
	InstrumentMain InstrumentFunc
	// ToolID identifies the instrumenter in the cache keys of instrumented
	// files (default: a hash of the running executable, which holds it).
	ToolID string
	// Runtime is the runtime source tree, rooted at "rt" (default
	// interleave.RuntimeSource).
	Runtime fs.FS
	// SolverSource is the source of interleave-solver, which strategy mcr
	// needs (default interleave.SolverSource).
	SolverSource fs.FS
	// CacheDir is the cache directory (default CacheDir()).
	CacheDir string
	// Env is the environment of the go commands (default os.Environ()).
	Env []string
	// Stdout and Stderr receive go test's output and the driver's messages
	// (default os.Stdout and os.Stderr).
	Stdout, Stderr io.Writer
	// Progress, when set, shows how the explorations go while go test
	// runs (Test only).
	Progress ProgressSink
}
