package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loopModule is a module whose test checks the loop-variable semantics of
// its go line: one variable per loop before go 1.22, per iteration since.
func loopModule(goLine, want string) map[string]string {
	return map[string]string{
		"go.mod": "module example.com/loop\n\ngo " + goLine + "\n",
		"loop.go": `package loop

// Captured returns what closures created in a loop see after it.
func Captured() []int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	var out []int
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}

// Unsupported makes the stand-in instrumenter warn.
func Unsupported() {}
`,
		"loop_test.go": `package loop

import (
	"fmt"
	"testing"
)

func TestLoopVar(t *testing.T) {
	if got := fmt.Sprint(Captured()); got != "` + want + `" {
		t.Fatalf("Captured() = %s, want ` + want + `", got)
	}
}
`,
	}
}

func TestRuntimeInjectedKeepsLanguageVersion(t *testing.T) {
	skipShort(t)
	cache := sharedCacheDir
	for _, tc := range []struct{ goLine, want string }{
		{"1.21", "[3 3 3]"}, // one variable per loop
		{"1.26", "[0 1 2]"}, // one per iteration
		{"1.16", "[3 3 3]"}, // raised to 1.21 for the runtime, same semantics
	} {
		t.Run("go"+tc.goLine, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, loopModule(tc.goLine, tc.want))
			before := hashTree(t, dir)
			r := runTest(t, cache, dir, nil, "-v")
			if r.err != nil {
				t.Fatalf("Test: %v\n%s", r.err, r.stderr)
			}
			if code := r.out.ExitCode(); code != ExitPass {
				t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, r.stdout, r.stderr)
			}
			if r.out.Instrumented == 0 {
				t.Error("nothing was instrumented")
			}
			if !strings.Contains(r.stdout, "--- PASS: TestLoopVar") {
				t.Errorf("go test output lacks the test:\n%s", r.stdout)
			}
			if !strings.Contains(r.stderr, "interleave: warning: loop.go:") || !strings.Contains(r.stderr, ": stand-in warning") {
				t.Errorf("warning not printed as file:line: msg:\n%s", r.stderr)
			}
			if after := hashTree(t, dir); after != before {
				t.Error("the run wrote into the user's tree")
			}
			// The second run takes everything from the cache.
			r2 := runTest(t, cache, dir, nil)
			if r2.err != nil || r2.out.ExitCode() != ExitPass {
				t.Fatalf("second run: %v, %+v\n%s", r2.err, r2.out, r2.stderr)
			}
			if r2.out.Instrumented != 0 || r2.out.Cached == 0 {
				t.Errorf("second run instrumented %d units, %d cached; want all cached", r2.out.Instrumented, r2.out.Cached)
			}
			if !strings.Contains(r2.stderr, "stand-in warning") {
				t.Error("cached run lost the warnings")
			}
		})
	}
}

func TestFailingTestExitsOne(t *testing.T) {
	skipShort(t)
	dir := t.TempDir()
	writeTree(t, dir, loopModule("1.22", "[9 9 9]"))
	r := runTest(t, sharedCacheDir, dir, []string{"./..."})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if code := r.out.ExitCode(); code != ExitFail || r.out.BuildFailed {
		t.Fatalf("exit %d (build failed %v), want 1\n%s", code, r.out.BuildFailed, r.stdout)
	}
	if !strings.Contains(r.stdout, "--- FAIL: TestLoopVar") || !strings.Contains(r.stdout, "loop_test.go:10:") {
		t.Errorf("failure not reported against the original file:\n%s", r.stdout)
	}
}

func TestBuildErrorExitsTwoWithOriginalPosition(t *testing.T) {
	skipShort(t)
	dir := t.TempDir()
	files := loopModule("1.22", "[0 1 2]")
	files["broken.go"] = "package loop\n\n// Broken does not compile.\nfunc Broken() int {\n\treturn undefinedName\n}\n"
	writeTree(t, dir, files)
	before := hashTree(t, dir)
	r := runTest(t, sharedCacheDir, dir, nil)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if code := r.out.ExitCode(); code != ExitUsage || !r.out.BuildFailed {
		t.Fatalf("exit %d (build failed %v), want 2\n%s\n%s", code, r.out.BuildFailed, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "broken.go:5:") || !strings.Contains(r.stderr, "undefined: undefinedName") {
		t.Errorf("compiler error not shown against the original file:\n%s", r.stderr)
	}
	if hashTree(t, dir) != before {
		t.Error("the run wrote into the user's tree")
	}
}

func TestInstrumentedFileBreaksBuildAtOriginalLine(t *testing.T) {
	skipShort(t)
	// An instrumenter whose output does not compile: the error must still
	// name the original file and line through the line directives.
	dir := t.TempDir()
	writeTree(t, dir, loopModule("1.22", "[0 1 2]"))
	var stdout, stderr strings.Builder
	out, err := Test(t.Context(), Options{
		Dir: dir,
		Instrument: func(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []Warning, error) {
			src, _ := os.ReadFile(filename)
			s := strings.Replace(string(src), "return i }", "return i + undefinedByInstrumenter }", 1)
			return []byte("//line " + filename + ":1\n" + s), nil, nil
		},
		ToolID: "broken-instrumenter", CacheDir: sharedCacheDir, Stdout: &stdout, Stderr: &stderr,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode() != ExitUsage {
		t.Fatalf("exit %d, want 2", out.ExitCode())
	}
	if want := filepath.Base("loop.go") + ":7:"; !strings.Contains(stderr.String(), want) {
		t.Errorf("error not at %s:\n%s", want, stderr.String())
	}
}

func TestMissingPackageIsBuildError(t *testing.T) {
	skipShort(t)
	dir := t.TempDir()
	writeTree(t, dir, loopModule("1.22", "[0 1 2]"))
	r := runTest(t, sharedCacheDir, dir, []string{"./nosuchdir"})
	if _, ok := r.err.(*BuildError); !ok {
		t.Fatalf("err = %v (%T), want a *BuildError", r.err, r.err)
	}
}

func TestFilesNamedOnTheCommandLine(t *testing.T) {
	skipShort(t)
	dir := t.TempDir()
	writeTree(t, dir, loopModule("1.22", "[0 1 2]"))
	r := runTest(t, sharedCacheDir, dir, []string{"loop.go", "loop_test.go"}, "-v")
	if r.err != nil || r.out.ExitCode() != ExitPass {
		t.Fatalf("%v %+v\n%s\n%s", r.err, r.out, r.stdout, r.stderr)
	}
	if r.out.Instrumented == 0 || !strings.Contains(r.stdout, "ok  \tcommand-line-arguments") {
		t.Errorf("files were not instrumented (%d units):\n%s", r.out.Instrumented, r.stdout)
	}
}
