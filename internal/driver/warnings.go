package driver

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// printWarnings prints instrumenter warnings, one per line, sorted, with
// file names relative to dir where they are below it. Warnings about the
// files of dependency modules (modules maps a file to its module) are about
// code the user did not write: unless all is set, they are summed up in one
// line per module, which says how many files were left native.
func printWarnings(w io.Writer, dir string, warns []Warning, modules map[string]*packages.Module, all bool) {
	lines := map[string]bool{}
	type depSummary struct {
		warnings int
		native   map[string]bool // files left as they were
	}
	deps := map[string]*depSummary{}
	for _, wr := range warns {
		file := wr.Pos.Filename
		if m := modules[file]; m != nil && !m.Main && !all {
			name := m.Path
			if m.Version != "" {
				name += "@" + m.Version
			}
			d := deps[name]
			if d == nil {
				d = &depSummary{native: map[string]bool{}}
				deps[name] = d
			}
			d.warnings++
			if strings.HasPrefix(wr.Msg, "not instrumented") && wr.Pos.Line == 0 {
				d.native[file] = true
			}
			continue
		}
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
	names := make([]string, 0, len(deps))
	for n := range deps {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := deps[n]
		native := ""
		if len(d.native) > 0 {
			native = fmt.Sprintf(", %s left native", plural(len(d.native), "file"))
		}
		fmt.Fprintf(w, "interleave: dependency %s: %s%s (-dep-warnings lists them)\n", n, plural(d.warnings, "instrumenter warning"), native)
	}
}
