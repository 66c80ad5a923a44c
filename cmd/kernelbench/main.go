// Command kernelbench measures interleave's strategies on the bug kernels:
// it is "interleave bench" as a standalone command (see package
// interleave.dev/internal/bench). Run it from the repository root:
//
//	go run ./cmd/kernelbench [-quick] [-v] [kernel dirs]
//
// It writes docs/kernels.md and docs/kernels.json and prints one summary
// line per strategy.
package main

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/signal"

	"interleave.dev/internal/bench"
	"interleave.dev/internal/driver"
	"interleave.dev/internal/instrument"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	b := &bench.DriverBuilder{Instrument: instrumentFile, GoFlags: []string{"-p=1"}}
	code := bench.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, b)
	stop()
	os.Exit(code)
}

// instrumentFile is the instrumenter "interleave test" uses: internal/instrument
// targeting the injected runtime.
func instrumentFile(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []driver.Warning, error) {
	src, warns, err := instrument.File(fset, f, pkg, info, filename, instrument.Options{RuntimeImport: driver.RuntimeImport})
	out := make([]driver.Warning, len(warns))
	for i, w := range warns {
		out[i] = driver.Warning{Pos: w.Pos, Msg: w.Msg}
	}
	return src, out, err
}
