package interleave

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestImportsPointDown reads the rooms of ARCHITECTURE.md, rows from the
// top of the house down, and checks that every package of the module is
// in a row and imports only packages of its row or of rows below it.
func TestImportsPointDown(t *testing.T) {
	md, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := rooms(t, string(md))
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "interleave.dev"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		if pkg == "" {
			continue // the module root: embed.go
		}
		row, ok := rows[pkg]
		if !ok {
			t.Errorf("%s is in no row of ARCHITECTURE.md's rooms: put it on the map", pkg)
			continue
		}
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if r, ok := rows[dep]; ok && r < row {
				t.Errorf("%s (row %d) imports %s (row %d), above it: imports point down", pkg, row, dep, r)
			}
		}
	}
}

// rooms returns the row of each package listed in the table under
// "## Rooms" in md, numbered from the top.
func rooms(t *testing.T, md string) map[string]int {
	_, sec, ok := strings.Cut(md, "\n## Rooms\n")
	if !ok {
		t.Fatal("ARCHITECTURE.md has no section \"## Rooms\"")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	quoted := regexp.MustCompile("`([^`]+)`")
	rows := map[string]int{}
	n := 0
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "row" {
			continue
		}
		n++
		for _, m := range quoted.FindAllStringSubmatch(cells[2], -1) {
			rows[m[1]] = n
		}
	}
	if n < 5 {
		t.Fatalf("the rooms table has %d rows", n)
	}
	return rows
}
