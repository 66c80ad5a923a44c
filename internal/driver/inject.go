package driver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// injectRuntime writes the runtime module and the temporary go.mod that
// requires it (and the mirrors of instrumented dependency modules), and
// returns the go test flags that use them.
func injectRuntime(ctx context.Context, o Options, ws *workspace, ins *instrumentation) ([]string, error) {
	if ws.mod.Path == RuntimeModule {
		// Testing interleave itself: the runtime is in the main module,
		// and dependencies are not instrumented (see instrumentGraph).
		return nil, nil
	}
	mirrors, err := mirrorModules(o.CacheDir, ws.goe.GOMODCACHE, ins.Replace, ins.Modules)
	if err != nil {
		return nil, err
	}
	rtDir, err := WriteRuntime(o.CacheDir, o.Runtime)
	if err != nil {
		return nil, err
	}
	plan, err := writeModfile(ctx, ws.tmp, ws.mod, rtDir, mirrors, ws.env)
	if err != nil {
		return nil, err
	}
	args := []string{"-modfile=" + plan.Path}
	switch {
	case plan.ModMod:
		args = append(args, "-mod=mod")
	case vendored(ws.mod.Dir) && !hasFlag(o.GoFlags, "mod"):
		// The go command reads vendor/modules.txt past any overlay, so the
		// injected runtime cannot be vendored: build from the module cache.
		fmt.Fprintf(o.Stderr, "interleave: warning: building with -mod=mod: the vendor directory cannot hold the injected runtime\n")
		args = append(args, "-mod=mod")
	}
	return args, nil
}

// vendored reports whether the module in dir has a vendor directory.
func vendored(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt"))
	return err == nil
}

// hasFlag reports whether flags (as "-name=value") set the go flag name.
func hasFlag(flags []string, name string) bool {
	for _, f := range flags {
		f = strings.TrimLeft(f, "-")
		if f == name || strings.HasPrefix(f, name+"=") {
			return true
		}
	}
	return false
}
