package bench

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const suiteDir = "../../kernels"

// TestSuite checks the kernel suite itself: every kernel.json is valid and
// matches its directory, and the suite covers what it promises.
func TestSuite(t *testing.T) {
	ks, err := LoadSuite(suiteDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) < 40 {
		t.Errorf("%d kernels, want at least 40", len(ks))
	}
	classes := map[string]int{}
	var hard, partial, input int
	for _, k := range ks {
		classes[k.Class]++
		if k.Hard {
			hard++
		}
		if k.Partial {
			partial++
		}
		if k.NeedsInput {
			input++
		}
	}
	for _, c := range []string{"deadlock", "leak", "race", "atomicity", "order", "panic", "livelock"} {
		if classes[c] == 0 {
			t.Errorf("no kernel of class %s", c)
		}
	}
	if hard < 4 || partial < 3 || input < 2 {
		t.Errorf("%d hard, %d partial, %d needs_input kernels: too few", hard, partial, input)
	}
}

// TestVariantsShareTheirTest checks that the variants of a kernel differ
// only in their code: each has one TestXxx, and the test files are the same
// but for the package clause, so that a detection on buggy and silence on
// fixed are about the same assertions.
func TestVariantsShareTheirTest(t *testing.T) {
	ks, err := LoadSuite(suiteDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		var first, firstVariant string
		for _, v := range k.Variants {
			files, _ := filepath.Glob(filepath.Join(k.Dir, v, "*_test.go"))
			if len(files) != 1 {
				t.Errorf("%s/%s: %d test files, want 1", k.Name, v, len(files))
				continue
			}
			src, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), files[0], src, 0)
			if err != nil {
				t.Errorf("%s/%s: %v", k.Name, v, err)
				continue
			}
			if f.Name.Name != v {
				t.Errorf("%s/%s: package %s, want %s", k.Name, v, f.Name.Name, v)
			}
			tests := 0
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
					tests++
				}
			}
			if tests != 1 {
				t.Errorf("%s/%s: %d TestXxx functions, want 1", k.Name, v, tests)
			}
			body := strings.TrimPrefix(string(src), "package "+v)
			if first == "" {
				first, firstVariant = body, v
			} else if body != first {
				t.Errorf("%s: the tests of %s and %s differ", k.Name, firstVariant, v)
			}
		}
	}
}
