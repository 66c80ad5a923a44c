package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOperandNames rewrites testdata/names.input.go and checks that the
// sites of each line with a comment "names: K*text, ..." register those
// operands: what a report names the variable, field, element, lock,
// channel, WaitGroup or Cond of an operation by.
func TestOperandNames(t *testing.T) {
	const input = "testdata/names.input.go"
	out := instrumentInput(t, input)
	got := registeredOperands(t, out)
	src, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, l := range strings.Split(string(src), "\n") {
		_, want, ok := strings.Cut(l, "// names: ")
		if !ok {
			continue
		}
		checked++
		for _, w := range strings.Split(want, ", ") {
			if !slices.Contains(got[i+1], w) {
				t.Errorf("line %d: the sites name %q, want %q among them", i+1, got[i+1], w)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no line of the input says what it names")
	}
}

// registeredOperands parses the registration of the sites of out, a
// rewritten file, and returns the operands of the sites of each line.
func registeredOperands(t *testing.T, out []byte) map[int][]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "out.go", out, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var args []ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "RegisterFile" {
				args = c.Args
			}
		}
		return args == nil
	})
	if len(args) < 2 {
		t.Fatal("no RegisterFile call with a table of operands")
	}
	table, err := strconv.Unquote(args[1].(*ast.BasicLit).Value)
	if err != nil {
		t.Fatal(err)
	}
	entries := strings.Split(table, "\n")
	byLine := make(map[int][]string)
	for k := 0; 2+2*k < len(args); k++ {
		line, err := strconv.Atoi(args[2+2*k].(*ast.BasicLit).Value)
		if err != nil {
			t.Fatal(err)
		}
		if k < len(entries) && entries[k] != "" {
			byLine[line] = append(byLine[line], strings.Split(entries[k], "\t")...)
		}
	}
	return byLine
}
