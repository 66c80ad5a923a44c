package driver

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Warning is an instrumenter warning: code left as it was, and why.
type Warning struct {
	Pos token.Position
	Msg string
}

// InstrumentFunc rewrites one file of a type-checked package into its
// instrumented source, which must carry line directives to the original
// file. It has the shape of internal/instrument.File with the options bound.
type InstrumentFunc func(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []Warning, error)

// unit is the set of files instrumented together and cached under one key:
// the files of one package (variant) that no larger variant also holds.
type unit struct {
	pkg   *packages.Package // from the list load
	files []string          // absolute paths, sorted
	key   string
	// instrument rewrites the unit's files instead of the run's
	// instrumenter (Options.InstrumentMain), or nil.
	instrument InstrumentFunc
}

// instrumentation is the outcome of the instrument step.
type instrumentation struct {
	Replace  map[string]string           // original file -> instrumented file
	Modules  map[string]*packages.Module // original file -> its module
	Warnings []Warning
	Units    int // units instrumented
	Cached   int // units found in the cache
}

// selectUnits decides which files are instrumented, and with which package
// variant's type information. A file belongs to the package variant that
// holds the most files ("p [p.test]" holds p's files and its internal tests),
// preferring the plain variant on a tie.
func selectUnits(all []*packages.Package, instrumentable func(*packages.Package) bool) []*unit {
	owner := map[string]*packages.Package{}
	better := func(a, b *packages.Package) bool { // a better owner than b?
		if len(a.GoFiles) != len(b.GoFiles) {
			return len(a.GoFiles) > len(b.GoFiles)
		}
		ab, bb := strings.Contains(a.ID, " ["), strings.Contains(b.ID, " [")
		if ab != bb {
			return !ab
		}
		return a.ID < b.ID
	}
	for _, p := range all {
		if !instrumentable(p) {
			continue
		}
		for _, f := range p.GoFiles {
			if cur, ok := owner[f]; !ok || better(p, cur) {
				owner[f] = p
			}
		}
	}
	byID := map[string]*unit{}
	for f, p := range owner {
		u := byID[p.ID]
		if u == nil {
			u = &unit{pkg: p}
			byID[p.ID] = u
		}
		u.files = append(u.files, f)
	}
	units := make([]*unit, 0, len(byID))
	for _, u := range byID {
		sort.Strings(u.files)
		units = append(units, u)
	}
	sort.Slice(units, func(i, j int) bool { return units[i].pkg.ID < units[j].pkg.ID })
	return units
}

// keyer computes content keys of packages: a hash of the package's files and
// of the keys of everything it imports, so that a unit's key changes when
// anything that can change its instrumentation changes.
type keyer struct {
	salt     string
	memo     map[string]string
	fileHash map[string]string
}

func (k *keyer) key(p *packages.Package) (string, error) {
	if s, ok := k.memo[p.ID]; ok {
		return s, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nid %s\n", k.salt, p.ID)
	switch m := p.Module; {
	case m == nil && p.PkgPath != fileArgsPackage:
		b.WriteString("std\n") // the toolchain version is in the salt
	case m != nil && m.Replace == nil && m.Version != "":
		// An immutable module version from the module cache: keyed by
		// version, so that a cached run reads none of its files.
		fmt.Fprintf(&b, "module %s@%s\nfiles %q\n", m.Path, m.Version, p.GoFiles)
	default:
		if m != nil {
			fmt.Fprintf(&b, "module %s go %s\n", m.Path, m.GoVersion)
		}
		for _, f := range p.GoFiles {
			h, err := k.hashFile(f)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "file %s %s\n", f, h)
		}
	}
	for _, path := range sortedImports(p) {
		s, err := k.key(p.Imports[path])
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "import %s %s\n", path, s)
	}
	s := hashBytes([]byte(b.String()))
	k.memo[p.ID] = s
	return s, nil
}

func (k *keyer) hashFile(path string) (string, error) {
	if h, ok := k.fileHash[path]; ok {
		return h, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("hashing source: %w", err)
	}
	h := hashBytes(b)
	k.fileHash[path] = h
	return h, nil
}

// instrumentUnits fills r from the cache where it can, and instruments the
// missing units after a typed load. A unit whose package has type errors is
// left uninstrumented and uncached, so that the compiler reports its errors
// against the original files.
//
// patterns are the run's package patterns, used to load the package of
// files named on the command line again.
func instrumentUnits(ctx context.Context, lc loadConfig, cacheDir string, units []*unit, instrument InstrumentFunc, patterns []string) (*instrumentation, error) {
	r := &instrumentation{Replace: map[string]string{}, Modules: map[string]*packages.Module{}}
	for _, u := range units {
		for _, f := range u.files {
			r.Modules[f] = u.pkg.Module
		}
	}
	var missing []*unit
	for _, u := range units {
		c, err := readIndex(cacheDir, u.key)
		if err != nil {
			missing = append(missing, u)
			continue
		}
		r.add(c)
		r.Cached++
	}
	if len(missing) == 0 {
		return r, nil
	}
	load := map[string]bool{}
	for _, u := range missing {
		if p := loadPattern(u.pkg); p != fileArgsPackage {
			load[p] = true
		} else {
			for _, f := range patterns {
				load[f] = true
			}
		}
	}
	var list []string
	for p := range load {
		list = append(list, p)
	}
	sort.Strings(list)
	typed, err := loadTyped(ctx, lc, list)
	if err != nil {
		return nil, err
	}
	for _, u := range missing {
		p := typed[u.pkg.ID]
		if p == nil || p.Types == nil || len(p.Syntax) == 0 {
			for _, f := range u.files {
				r.Warnings = append(r.Warnings, Warning{Pos: token.Position{Filename: f}, Msg: "not instrumented: the package could not be loaded with its source"})
			}
			continue
		}
		if len(p.Errors) > 0 || p.IllTyped {
			continue // the build reports the errors
		}
		inst := instrument
		if u.instrument != nil {
			inst = u.instrument
		}
		c, err := instrumentUnit(cacheDir, p, u, inst)
		if err != nil {
			return nil, err
		}
		if err := writeIndex(cacheDir, u.key, c); err != nil {
			return nil, err
		}
		r.add(c)
		r.Units++
	}
	return r, nil
}

// instrumentUnit instruments the files of u, typed as package p, and
// stores the instrumented copies in the cache by content.
func instrumentUnit(cacheDir string, p *packages.Package, u *unit, instrument InstrumentFunc) (*cachedUnit, error) {
	c := &cachedUnit{Replace: map[string]string{}}
	syntax := map[string]*ast.File{}
	for _, f := range p.Syntax {
		if tf := p.Fset.File(f.FileStart); tf != nil {
			syntax[tf.Name()] = f
		}
	}
	for _, f := range u.files {
		file := syntax[f]
		if file == nil {
			c.Warnings = append(c.Warnings, cachedWarning{File: f, Msg: "not instrumented: cgo file"})
			continue
		}
		assumeGoVersion(p, file)
		out, warns, err := instrument(p.Fset, file, p.Types, p.TypesInfo, f)
		for _, w := range warns {
			c.Warnings = append(c.Warnings, cachedWarning{File: w.Pos.Filename, Line: w.Pos.Line, Col: w.Pos.Column, Msg: w.Msg})
		}
		if err != nil {
			c.Warnings = append(c.Warnings, cachedWarning{File: f, Msg: fmt.Sprintf("not instrumented: %v", err)})
			continue
		}
		if out == nil {
			continue // nothing to rewrite
		}
		dst, err := storeFile(cacheDir, filepath.Base(f), out)
		if err != nil {
			return nil, err
		}
		c.Replace[f] = dst
	}
	return c, nil
}

// defaultGoVersion is the language version the go command assumes for a
// module whose go.mod has no go line, or that has no go.mod at all
// (+incompatible versions).
const defaultGoVersion = "go1.16"

// assumeGoVersion records in p's type information the language version the
// go command compiles file at when the type checker had none: a module
// without a go line is go 1.16 to the go command, but go/packages then
// type-checks it with no version, and the instrumenter, which upgrades files
// older than generics, must know.
func assumeGoVersion(p *packages.Package, file *ast.File) {
	if p.Module == nil || p.Module.GoVersion != "" || p.TypesInfo == nil || p.Types.GoVersion() != "" {
		return
	}
	if p.TypesInfo.FileVersions == nil {
		p.TypesInfo.FileVersions = map[*ast.File]string{}
	}
	if p.TypesInfo.FileVersions[file] == "" {
		p.TypesInfo.FileVersions[file] = defaultGoVersion
	}
}

func (r *instrumentation) add(c *cachedUnit) {
	for f, dst := range c.Replace {
		r.Replace[f] = dst
	}
	for _, w := range c.Warnings {
		r.Warnings = append(r.Warnings, Warning{Pos: token.Position{Filename: w.File, Line: w.Line, Column: w.Col}, Msg: w.Msg})
	}
}

// instrumentGraph instruments the packages of the graph that belong to the
// main module and to the dependency modules o.Scope selects, from the cache
// where it can. Dependencies are not instrumented when the main module is
// the runtime's own (interleave.dev), which is built without -modfile.
func instrumentGraph(ctx context.Context, o Options, ws *workspace, all []*packages.Package) (*instrumentation, error) {
	instrumentable := func(p *packages.Package) bool {
		if isTestMain(p) || isRuntimePackage(p.PkgPath) || len(p.GoFiles) == 0 {
			return false
		}
		if p.Module == nil { // the standard library, or files named on the command line
			return p.PkgPath == fileArgsPackage && within(ws.mod.Dir, p.GoFiles[0])
		}
		if p.Module.Main {
			return true
		}
		return ws.mod.Path != RuntimeModule && o.Scope.includesDep(p)
	}
	k := &keyer{
		salt:     strings.Join([]string{"interleave instrumentation v1", o.ToolID, ws.goe.GOVERSION, ws.goe.GOOS, ws.goe.GOARCH, RuntimeImport}, "\n"),
		memo:     map[string]string{},
		fileHash: map[string]string{},
	}
	units := selectUnits(all, instrumentable)
	for _, u := range units {
		pk, err := k.key(u.pkg)
		if err != nil {
			return nil, err
		}
		key := pk + "\n" + strings.Join(u.files, "\n")
		if o.InstrumentMain != nil && (u.pkg.Module != nil && u.pkg.Module.Main || u.pkg.PkgPath == fileArgsPackage) {
			// The main module's instrumentation differs from its
			// dependencies' (and a module is main in one run, a
			// dependency in another).
			u.instrument = o.InstrumentMain
			key += "\nmain module"
		}
		u.key = hashBytes([]byte(key))
	}
	return instrumentUnits(ctx, ws.load, o.CacheDir, units, o.Instrument, o.Patterns)
}

// within reports whether file lies in dir.
func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
