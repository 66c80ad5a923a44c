package instrument

import (
	"go/ast"
	"go/types"
)

// Sources of nondeterminism a schedule must not depend on, rewritten into
// runtime functions that take the same arguments (and no site: they are
// not scheduling points):
//
//   - the global functions of math/rand and math/rand/v2 draw, inside an
//     exploration, from a source seeded with the exploration's seed, so a
//     finding replays (rand.Intn(n) -> rt.RandIntn(n)), and rand.Seed
//     seeds that source (rt.RandSeed);
//   - pprof.Do and pprof.SetGoroutineLabels would replace the goroutine
//     labels through which the runtime knows a controlled goroutine;
//   - runtime.GOMAXPROCS: an exploring process runs on one processor,
//     and the program sees the value it would have natively
//     (rt.GOMAXPROCS);
//   - runtime.NumGoroutine and runtime.Stack: the program does not see
//     the scheduler's own goroutines (rt.NumGoroutine, rt.Stack);
//   - runtime.Caller and runtime.Callers: under its outermost frame the
//     program sees the frames it has natively, not the scheduler's
//     (rt.Caller, rt.Callers).
var determinismFuncs = map[string]map[string]string{
	"math/rand":     mathRandFuncs("Rand", "ExpFloat64", "Float32", "Float64", "Int", "Int31", "Int31n", "Int63", "Int63n", "Intn", "NormFloat64", "Perm", "Read", "Seed", "Shuffle", "Uint32", "Uint64"),
	"math/rand/v2":  mathRandFuncs("RandV2", "ExpFloat64", "Float32", "Float64", "Int", "Int32", "Int32N", "Int64", "Int64N", "IntN", "N", "NormFloat64", "Perm", "Shuffle", "Uint", "Uint32", "Uint32N", "Uint64", "Uint64N", "UintN"),
	"runtime/pprof": {"Do": "PprofDo", "SetGoroutineLabels": "PprofSetGoroutineLabels"},
	"runtime":       {"GOMAXPROCS": "GOMAXPROCS", "NumGoroutine": "NumGoroutine", "Stack": "Stack", "Caller": "Caller", "Callers": "Callers"},
}

func mathRandFuncs(prefix string, names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = prefix + n
	}
	return m
}

// mapDeterminism returns the rewrite of a call of one of determinismFuncs,
// or nil for any other function.
func (r *rewriter) mapDeterminism(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) *callRW {
	name, ok := determinismFuncs[fn.Pkg().Path()][fn.Name()]
	if !ok {
		return nil
	}
	targs, err := r.instanceArgs(sel.Sel, call.Pos())
	if err != nil {
		r.warnf(call.Pos(), "%s.%s left native: %v", fn.Pkg().Name(), fn.Name(), err)
		return nil
	}
	return &callRW{call: call, fn: r.rt(name + targs), keep: true}
}
