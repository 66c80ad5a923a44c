package instrument

import (
	"go/ast"
	"go/types"
)

// Calls that end the process (os.Exit, log.Fatal and its kin) become
// runtime calls that, inside an exploration, end the schedule with a
// finding instead of the test process. The log functions are variadic, so
// their replacements take the site first:
//
//	os.Exit(code)          -> rt.Exit(code, site)
//	log.Fatalf(f, v...)    -> rt.LogFatalf(site, f, v...)
//	l.Fatal(v)             -> rt.LoggerFatal(l, site, v)

// exitFuncs maps package path and function name to the runtime function
// replacing it; siteFirst marks those taking the site before the
// arguments.
var exitFuncs = map[string]map[string]struct {
	rt        string
	siteFirst bool
}{
	"os": {"Exit": {rt: "Exit"}},
	"log": {
		"Fatal":   {rt: "LogFatal", siteFirst: true},
		"Fatalf":  {rt: "LogFatalf", siteFirst: true},
		"Fatalln": {rt: "LogFatalln", siteFirst: true},
	},
}

// loggerMethods maps the methods of *log.Logger that end the process to
// their replacements, which take the logger, then the site.
var loggerMethods = map[string]string{
	"Fatal":   "LoggerFatal",
	"Fatalf":  "LoggerFatalf",
	"Fatalln": "LoggerFatalln",
}

// mapExitFunc returns the rewrite of a call of os.Exit or log.Fatal*, or
// nil for any other function.
func (r *rewriter) mapExitFunc(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) *callRW {
	e, ok := exitFuncs[fn.Pkg().Path()][fn.Name()]
	if !ok {
		return nil
	}
	if e.siteFirst {
		return &callRW{call: call, fn: r.rt(e.rt), keep: true, lead: r.site(call.Pos())}
	}
	if call.Ellipsis.IsValid() {
		return nil
	}
	return &callRW{call: call, fn: r.rt(e.rt), keep: true, site: r.site(call.Pos())}
}

// mapLoggerMethod rewrites l.Fatal(v) into rt.LoggerFatal(l, site, v) for
// a receiver of type *log.Logger or one embedding it.
func (r *rewriter) mapLoggerMethod(call *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection, m *types.Func) *callRW {
	name, ok := loggerMethods[m.Name()]
	if !ok {
		return nil
	}
	isLogger := func(t types.Type) bool {
		named, ok := types.Unalias(derefType(t)).(*types.Named)
		return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "log" && named.Obj().Name() == "Logger"
	}
	recv, _, err := r.receiver(f, sel, isLogger)
	if err != nil {
		r.warnf(call.Pos(), "call of %s left native: %v", m.FullName(), err)
		return nil
	}
	return &callRW{call: call, fn: r.rt(name), recv: recv, recvExpr: f.X, keep: true, lead: r.site(call.Pos())}
}
