package instrument

import (
	"bytes"
	"flag"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps

// loadFile loads one Go file as a package.
func loadFile(t *testing.T, path string) *packages.Package {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: loadMode, Dir: filepath.Dir(abs), Tests: false}
	pkgs, err := packages.Load(cfg, abs)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("load %s: %d packages", path, len(pkgs))
	}
	if len(pkgs[0].Errors) > 0 {
		t.Fatalf("load %s: %v", path, pkgs[0].Errors)
	}
	return pkgs[0]
}

// goldenName maps testdata/x.input.go to the name the output claims as
// its original file: testdata/x.go (so x_test.input.go is a test file).
func goldenName(input string) string {
	return strings.TrimSuffix(input, ".input.go") + ".go"
}

// symbolicMark, a line of a testdata input, rewrites it with
// Options.Symbolic.
const symbolicMark = "// instrument: symbolic\n"

// instrumentInput rewrites one testdata input; the warnings are appended
// as comments.
func instrumentInput(t *testing.T, input string) []byte {
	t.Helper()
	pkg := loadFile(t, input)
	f := pkg.Syntax[0]
	src, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Symbolic: bytes.Contains(src, []byte("\n"+symbolicMark))}
	out, warns, err := File(pkg.Fset, f, pkg.Types, pkg.TypesInfo, goldenName(input), opts)
	if err != nil {
		t.Fatalf("%s: %v", input, err)
	}
	if len(warns) > 0 {
		var b bytes.Buffer
		b.Write(out)
		b.WriteString("\n// Warnings:\n")
		for _, w := range warns {
			b.WriteString("//\t" + w.String() + "\n")
		}
		out = b.Bytes()
	}
	return out
}

func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.input.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, input := range inputs {
		name := strings.TrimSuffix(filepath.Base(input), ".input.go")
		t.Run(name, func(t *testing.T) {
			got := instrumentInput(t, input)
			if _, err := format.Source(got); err != nil {
				t.Errorf("output is not gofmt-valid: %v", err)
			}
			golden := strings.TrimSuffix(input, ".input.go") + ".golden.go"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test -update and review the diff\n--- got:\n%s", input, golden, got)
			}
		})
	}
}

// repoRoot returns the root of the interleave.dev module.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "..", "..")
}

// tempModule creates a module that requires interleave.dev from this
// working tree.
func tempModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root := repoRoot(t)
	mod := "module example.com/instrumented\n\ngo 1.26\n\nrequire interleave.dev v0.0.0\n\nreplace interleave.dev => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func goCmd(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestGoldenCompiles builds and vets every rewritten input against the
// runtime of this repository, each in its own package.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds packages")
	}
	inputs, err := filepath.Glob("testdata/*.input.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := tempModule(t)
	for _, input := range inputs {
		name := strings.TrimSuffix(filepath.Base(input), ".input.go")
		pkgDir := filepath.Join(dir, strings.ReplaceAll(name, "_test", "t"))
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			t.Fatal(err)
		}
		out := instrumentInput(t, input)
		if err := os.WriteFile(filepath.Join(pkgDir, filepath.Base(goldenName(input))), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := goCmd(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet of the rewritten inputs failed: %v\n%s", err, out)
	}
}
