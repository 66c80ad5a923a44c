package driver

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

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
