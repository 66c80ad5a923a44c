package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"interleave.dev"
	"interleave.dev/rt/wire"
)

// Test instruments the packages matched by opts.Patterns and runs their
// tests under the explorer with go test. It returns an error (exit status
// 2) when the run cannot start, and a *BuildError when a package cannot be
// loaded; findings and test failures are in the Outcome.
func Test(ctx context.Context, opts Options) (*Outcome, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	timing := newTimer(o.Env)
	env := o.Env
	ge, err := readGoEnv(ctx, o.Dir, env)
	if err != nil {
		return nil, err
	}
	if ge.GOWORK != "" && ge.GOWORK != "off" {
		fmt.Fprintf(o.Stderr, "interleave: warning: ignoring workspace %s (go test -modfile does not support workspaces)\n", ge.GOWORK)
		env = append(env, "GOWORK=off")
		if ge, err = readGoEnv(ctx, o.Dir, env); err != nil {
			return nil, err
		}
	}
	mod, err := readModule(ctx, o.Dir, env, ge)
	if err != nil {
		return nil, err
	}

	tmp, err := os.MkdirTemp("", "interleave-")
	if err != nil {
		return nil, fmt.Errorf("creating a temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)

	lc := loadConfig{Dir: o.Dir, Env: env}
	if o.Tags != "" {
		lc.BuildFlags = append(lc.BuildFlags, "-tags="+o.Tags)
	}
	timing.lap("go env")
	all, err := listGraph(ctx, lc, o.Patterns)
	timing.lap("list")
	if err != nil {
		return nil, err
	}
	instrumentable := func(p *packages.Package) bool {
		return p.Module != nil && (p.Module.Main || o.InstrumentDeps) &&
			!isTestMain(p) && !isRuntimePackage(p.PkgPath) && len(p.GoFiles) > 0
	}
	k := &keyer{
		salt:           strings.Join([]string{"interleave instrumentation v1", o.ToolID, ge.GOVERSION, ge.GOOS, ge.GOARCH, RuntimeImport}, "\n"),
		instrumentable: instrumentable,
		memo:           map[string]string{},
		fileHash:       map[string]string{},
	}
	units := selectUnits(all, instrumentable)
	for _, u := range units {
		pk, err := k.key(u.pkg)
		if err != nil {
			return nil, err
		}
		u.key = hashBytes([]byte(pk + "\n" + strings.Join(u.files, "\n")))
	}
	ins, err := instrumentUnits(ctx, lc, o.CacheDir, units, o.Instrument)
	if err != nil {
		return nil, err
	}
	timing.lap(fmt.Sprintf("instrument (%d units, %d cached)", ins.Units, ins.Cached))
	printWarnings(o.Stderr, o.Dir, ins.Warnings)

	var args []string
	if mod.Path == RuntimeModule {
		// Testing interleave itself: the runtime is in the main module.
		for f := range ins.Replace {
			if inModCache(ge.GOMODCACHE, f) {
				fmt.Fprintf(o.Stderr, "interleave: warning: %s: not instrumented: dependency modules are instrumented through -modfile, which is not used in module %s\n", f, RuntimeModule)
				delete(ins.Replace, f)
			}
		}
	} else {
		mirrors, err := mirrorModules(o.CacheDir, ge.GOMODCACHE, ins.Replace, ins.Modules)
		if err != nil {
			return nil, err
		}
		rtDir, err := WriteRuntime(o.CacheDir, o.Runtime)
		if err != nil {
			return nil, err
		}
		plan, err := writeModfile(ctx, tmp, mod, rtDir, mirrors, env)
		if err != nil {
			return nil, err
		}
		args = append(args, "-modfile="+plan.Path)
		switch {
		case plan.ModMod:
			args = append(args, "-mod=mod")
		case vendored(mod.Dir) && !hasFlag(o.GoFlags, "mod"):
			// The go command reads vendor/modules.txt past any overlay, so
			// the injected runtime cannot be vendored: build from the
			// module cache instead.
			fmt.Fprintf(o.Stderr, "interleave: warning: building with -mod=mod: the vendor directory cannot hold the injected runtime\n")
			args = append(args, "-mod=mod")
		}
	}
	if len(ins.Replace) > 0 {
		overlay, err := writeOverlay(o.CacheDir, ins.Replace)
		if err != nil {
			return nil, err
		}
		args = append(args, "-overlay="+overlay)
	}

	cfg := o.Config
	cfg.Results = filepath.Join(tmp, "results.jsonl")
	if cfg.ScheduleDir == "" {
		cfg.ScheduleDir = filepath.Join(o.CacheDir, "schedules")
	}
	if cfg.Package == "" {
		cfg.Package = singlePackage(all)
	}
	if err := os.MkdirAll(cfg.ScheduleDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the schedule directory: %w", err)
	}
	if o.Tags != "" {
		args = append(args, "-tags="+o.Tags)
	}
	args = append(args, o.GoFlags...)
	args = append(args, o.Patterns...)
	if len(o.TestArgs) > 0 {
		args = append(append(args, "-args"), o.TestArgs...)
	}
	attr := newAttributor()
	run, err := runGoTest(ctx, o.Dir, append(env, wire.ConfigEnv+"="+cfg.Encode()), args, o.Stdout, o.Stderr, attr.line)
	if err != nil {
		return nil, err
	}
	out := &Outcome{GoTestExit: run.Exit, BuildFailed: run.BuildFailed, Instrumented: ins.Units, Cached: ins.Cached}
	out.Results, err = wire.ReadResults(cfg.Results)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reading test results: %w", err)
	}
	attr.complete(out.Results)
	timing.lap("go test")
	timing.print(o.Stderr)
	return out, nil
}

// withDefaults returns a copy of opts with its defaults filled in.
func (opts Options) withDefaults() (Options, error) {
	o := opts
	if o.Instrument == nil {
		return o, errors.New("driver: no instrumenter")
	}
	if o.Dir == "" {
		o.Dir = "."
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return o, fmt.Errorf("resolving %s: %w", o.Dir, err)
	}
	o.Dir = dir
	if len(o.Patterns) == 0 {
		o.Patterns = []string{"."}
	}
	if o.Runtime == nil {
		o.Runtime = interleave.RuntimeSource
	}
	if o.CacheDir == "" {
		if o.CacheDir, err = CacheDir(); err != nil {
			return o, err
		}
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.ToolID == "" {
		if o.ToolID, err = executableID(); err != nil {
			return o, err
		}
	}
	return o, nil
}

// executableID returns a hash of the running executable, which holds the
// instrumenter: instrumented files cached by another build are not reused.
func executableID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("identifying the instrumenter: %w", err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		return "", fmt.Errorf("identifying the instrumenter: %w", err)
	}
	return hashBytes(b), nil
}

// singlePackage returns the import path of the package under test when the
// run tests exactly one, else "" (the runtime then names the package).
func singlePackage(all []*packages.Package) string {
	paths := map[string]bool{}
	for _, p := range all {
		if isTestMain(p) {
			paths[strings.TrimSuffix(p.ID, ".test")] = true
		}
	}
	if len(paths) != 1 {
		return ""
	}
	for p := range paths {
		return p
	}
	return ""
}

// printWarnings prints instrumenter warnings, one per line, sorted, with
// file names relative to dir where they are below it.
func printWarnings(w io.Writer, dir string, warns []Warning) {
	lines := map[string]bool{}
	for _, wr := range warns {
		file := wr.Pos.Filename
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
		pos := file
		if wr.Pos.Line > 0 {
			pos = fmt.Sprintf("%s:%d", file, wr.Pos.Line)
		}
		lines[fmt.Sprintf("interleave: warning: %s: %s", pos, wr.Msg)] = true
	}
	sorted := make([]string, 0, len(lines))
	for l := range lines {
		sorted = append(sorted, l)
	}
	sort.Strings(sorted)
	for _, l := range sorted {
		fmt.Fprintln(w, l)
	}
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
