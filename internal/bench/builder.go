package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"interleave.dev/internal/driver"
)

// A Builder builds instrumented test binaries, so that the harness can run
// each many times with different configurations.
type Builder interface {
	// Build compiles the tests of the packages dir/p, for each p in pkgs
	// (directory names relative to dir, with distinct base names), into
	// outDir/<base name of p>.test, instrumented and linked with the
	// runtime. Building several packages in one call shares the loading
	// and instrumentation work.
	Build(ctx context.Context, dir string, pkgs []string, outDir string) error
}

// DriverBuilder builds test binaries with the driver: the package is
// instrumented into the driver's cache and compiled by "go test -c" with the
// driver's -overlay and -modfile, exactly as "interleave test" would build
// it before running it.
type DriverBuilder struct {
	// Instrument rewrites one file (required); the command passes the
	// instrumenter it uses for "interleave test".
	Instrument driver.InstrumentFunc
	// InstrumentMain, when set, rewrites the files of the module the
	// kernels are (driver.Options.InstrumentMain).
	InstrumentMain driver.InstrumentFunc
	// CacheDir is the driver's cache directory (default driver.CacheDir()).
	CacheDir string
	// Env is the environment of the go command (default os.Environ()).
	Env []string
	// GoFlags are extra go test build flags, such as "-p=1".
	GoFlags []string
}

// Build implements Builder.
func (b *DriverBuilder) Build(ctx context.Context, dir string, pkgs []string, outDir string) error {
	if b.Instrument == nil {
		return errors.New("bench: DriverBuilder needs an instrumenter")
	}
	patterns := make([]string, len(pkgs))
	for i, p := range pkgs {
		patterns[i] = "./" + filepath.ToSlash(p)
	}
	var output bytes.Buffer
	flags := append([]string{"-c", "-o", outDir + string(filepath.Separator)}, b.GoFlags...)
	o, err := driver.Test(ctx, driver.Options{
		Dir:            dir,
		Patterns:       patterns,
		GoFlags:        flags,
		Instrument:     b.Instrument,
		InstrumentMain: b.InstrumentMain,
		CacheDir:       b.CacheDir,
		Env:            b.Env,
		Stdout:         &output,
		Stderr:         &output,
	})
	if err != nil {
		return fmt.Errorf("building %s in %s: %w", strings.Join(pkgs, ", "), dir, err)
	}
	if o.BuildFailed || o.GoTestExit != 0 {
		return fmt.Errorf("building %s in %s: go test -c failed (exit %d):\n%s", strings.Join(pkgs, ", "), dir, o.GoTestExit, strings.TrimSpace(output.String()))
	}
	return nil
}
