package instrument

import (
	"go/ast"
	"go/types"
)

// goleakPath is go.uber.org/goleak, the ecosystem's leak checker. Called
// inside an exploration it would see the explorer's own goroutines and
// those of the schedule still running, so its checks become runtime calls
// that defer to interleave's leak detection there:
//
//	goleak.VerifyNone(t, opts...)     -> rt.GoleakVerifyNone(goleak.VerifyNone)(t, opts...)
//	goleak.Find(opts...)              -> rt.GoleakFind(goleak.Find)(opts...)
//	goleak.VerifyTestMain(m, opts...) -> rt.GoleakVerifyTestMain(goleak.VerifyTestMain)(m, opts...)
//
// The call's arguments (goleak.IgnoreCurrent() among them) are evaluated
// where they were. VerifyTestMain runs outside any exploration and stays
// goleak's; its wrapper tells the runtime that the package checks for
// every leak.
const goleakPath = "go.uber.org/goleak"

// goleakFuncs maps the checks of goleak to the runtime functions wrapping
// them.
var goleakFuncs = map[string]string{
	"VerifyNone":     "GoleakVerifyNone",
	"Find":           "GoleakFind",
	"VerifyTestMain": "GoleakVerifyTestMain",
}

// mapGoleak returns the rewrite of a call of goleak.VerifyNone,
// goleak.Find or goleak.VerifyTestMain, or nil for any other function.
func (r *rewriter) mapGoleak(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) *callRW {
	if fn.Pkg().Path() != goleakPath {
		return nil
	}
	name, ok := goleakFuncs[fn.Name()]
	if !ok {
		return nil
	}
	return &callRW{call: call, fn: r.rt(name) + "(" + string(r.src[r.off(sel.Pos()):r.off(sel.End())]) + ")", keep: true}
}
