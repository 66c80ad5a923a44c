package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"interleave.dev/internal/driver"
)

// A Builder builds the instrumented test binary of one package, so that
// the harness can run it many times with different configurations.
type Builder interface {
	// Build compiles the tests of the package in pkgDir into the
	// executable out, instrumented and linked with the runtime.
	Build(ctx context.Context, pkgDir, out string) error
}

// DriverBuilder builds test binaries with the driver: the package is
// instrumented into the driver's cache and compiled by "go test -c" with the
// driver's -overlay and -modfile, exactly as "interleave test" would build
// it before running it.
type DriverBuilder struct {
	// Instrument rewrites one file (required); the command passes the
	// instrumenter it uses for "interleave test".
	Instrument driver.InstrumentFunc
	// CacheDir is the driver's cache directory (default driver.CacheDir()).
	CacheDir string
	// Env is the environment of the go command (default os.Environ()).
	Env []string
	// GoFlags are extra go test build flags, such as "-p=1".
	GoFlags []string
}

// Build implements Builder.
func (b *DriverBuilder) Build(ctx context.Context, pkgDir, out string) error {
	if b.Instrument == nil {
		return errors.New("bench: DriverBuilder needs an instrumenter")
	}
	var output bytes.Buffer
	flags := append([]string{"-c", "-o", out}, b.GoFlags...)
	o, err := driver.Test(ctx, driver.Options{
		Dir:        pkgDir,
		Patterns:   []string{"."},
		GoFlags:    flags,
		Instrument: b.Instrument,
		CacheDir:   b.CacheDir,
		Env:        b.Env,
		Stdout:     &output,
		Stderr:     &output,
	})
	if err != nil {
		return fmt.Errorf("building %s: %w", pkgDir, err)
	}
	if o.BuildFailed || o.GoTestExit != 0 {
		return fmt.Errorf("building %s: go test -c failed (exit %d):\n%s", pkgDir, o.GoTestExit, strings.TrimSpace(output.String()))
	}
	return nil
}
