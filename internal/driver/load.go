package driver

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// BuildError reports packages that cannot be loaded or built. Its message
// holds the go command's or compiler's errors, against the original files.
type BuildError struct {
	Errors []string
}

func (e *BuildError) Error() string { return strings.Join(e.Errors, "\n") }

// listMode is what the first, cheap load asks of go list: the package graph
// with file names and modules, without compiling or type-checking.
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule

// typedMode is what the instrumenter needs of the packages it rewrites:
// syntax and full types. Dependencies come from export data.
const typedMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// loadConfig is the part of packages.Config common to both loads.
type loadConfig struct {
	Dir        string
	Env        []string
	BuildFlags []string
}

func (lc loadConfig) config(ctx context.Context, mode packages.LoadMode) *packages.Config {
	return &packages.Config{
		Context:    ctx,
		Mode:       mode,
		Dir:        lc.Dir,
		Env:        lc.Env,
		BuildFlags: lc.BuildFlags,
		Tests:      true,
	}
}

// listGraph loads the package graph of patterns and their tests, and
// returns every package in it, in dependency order. Errors of the go
// command itself (missing packages, bad patterns, syntax errors in imports)
// are returned as a *BuildError.
func listGraph(ctx context.Context, lc loadConfig, patterns []string) ([]*packages.Package, error) {
	roots, err := packages.Load(lc.config(ctx, listMode), patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	var all []*packages.Package
	var errs []string
	seen := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		all = append(all, p)
		for _, e := range p.Errors {
			if e.Kind != packages.ListError {
				continue // type and parse errors: the compiler reports them
			}
			if msg := e.Error(); !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	})
	if len(errs) > 0 {
		return nil, &BuildError{Errors: errs}
	}
	return all, nil
}

// loadTyped loads patterns with syntax and types, and returns every loaded
// package by ID.
func loadTyped(ctx context.Context, lc loadConfig, patterns []string) (map[string]*packages.Package, error) {
	roots, err := packages.Load(lc.config(ctx, typedMode), patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages for instrumentation: %w", err)
	}
	byID := map[string]*packages.Package{}
	packages.Visit(roots, nil, func(p *packages.Package) { byID[p.ID] = p })
	return byID, nil
}

// isTestMain reports whether p is the generated main package of a test
// binary ("p.test").
func isTestMain(p *packages.Package) bool {
	return !strings.Contains(p.ID, " ") && strings.HasSuffix(p.ID, ".test")
}

// fileArgsPackage is the import path the go command gives the package of
// files named on the command line.
const fileArgsPackage = "command-line-arguments"

// loadPattern returns the pattern that loads the package with the given ID
// and its test variants: "p" for "p", "p [p.test]" and "p_test [p.test]".
func loadPattern(p *packages.Package) string {
	if i := strings.Index(p.ID, " ["); i >= 0 && strings.HasSuffix(p.ID, ".test]") {
		return strings.TrimSuffix(p.ID[i+2:], ".test]")
	}
	return p.PkgPath
}

// sortedImports returns the import paths of p, sorted.
func sortedImports(p *packages.Package) []string {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	return paths
}
