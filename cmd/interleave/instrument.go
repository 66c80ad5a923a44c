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
var instrumentFile driver.InstrumentFunc = func(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []driver.Warning, error) {
	src, warns, err := instrument.File(fset, f, pkg, info, filename, instrument.Options{RuntimeImport: driver.RuntimeImport})
	out := make([]driver.Warning, len(warns))
	for i, w := range warns {
		out[i] = driver.Warning{Pos: w.Pos, Msg: w.Msg}
	}
	return src, out, err
}
