package main

import (
	"go/ast"
	"go/token"
	"go/types"

	"interleave.dev/internal/driver"
	"interleave.dev/internal/instrument"
)

// instrumentFile is the instrumenter the command uses: internal/instrument
// targeting the injected runtime.
var instrumentFile = instrumenter(instrument.Options{RuntimeImport: driver.RuntimeImport})

// instrumentMainFile is the instrumenter of the main module's files: the
// code under test also reports its conditions, writes, locals and calls
// symbolically, for strategy mpc.
var instrumentMainFile = instrumenter(instrument.Options{RuntimeImport: driver.RuntimeImport, Symbolic: true})

func instrumenter(opts instrument.Options) driver.InstrumentFunc {
	return func(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []driver.Warning, error) {
		src, warns, err := instrument.File(fset, f, pkg, info, filename, opts)
		out := make([]driver.Warning, len(warns))
		for i, w := range warns {
			out[i] = driver.Warning{Pos: w.Pos, Msg: w.Msg}
		}
		return src, out, err
	}
}
