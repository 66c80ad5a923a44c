package instrument

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestModulesCompile instruments every package (and its tests) of the
// repository's bug kernels and examples modules, and vets the result
// through an overlay: every rewritten file must type-check against rt.
func TestModulesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and vets whole modules")
	}
	for _, mod := range []string{"kernels", "examples"} {
		t.Run(mod, func(t *testing.T) {
			dir := filepath.Join(repoRoot(t), mod)
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
				t.Skipf("no module %s", mod)
			}
			vetInstrumented(t, dir)
		})
	}
}

// TestCorpusCompiles does the same for the module directories listed in
// $INSTRUMENT_CORPUS (separated by the list separator), for example
// copies of third-party modules from the module cache. With
// $INSTRUMENT_CORPUS_TEST set it also runs their tests, instrumented, with
// the native runtime.
func TestCorpusCompiles(t *testing.T) {
	corpus := os.Getenv("INSTRUMENT_CORPUS")
	if corpus == "" {
		t.Skip("set INSTRUMENT_CORPUS to module directories to instrument")
	}
	for _, dir := range filepath.SplitList(corpus) {
		t.Run(filepath.Base(dir), func(t *testing.T) { vetInstrumented(t, dir) })
	}
}

// vetInstrumented instruments the module in dir and runs go vet on it
// with the instrumented files overlaid.
func vetInstrumented(t *testing.T, dir string) {
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var ok []*packages.Package
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Logf("skipping %s: %v", p.ID, p.Errors[0])
			continue
		}
		ok = append(ok, p)
	}
	pkgs = ok
	// A file belongs to the variant with the most files (p [p.test]
	// holds p's files and its internal tests).
	sort.SliceStable(pkgs, func(i, j int) bool { return len(pkgs[i].Syntax) > len(pkgs[j].Syntax) })
	tmp := t.TempDir()
	replace := make(map[string]string)
	done := make(map[string]bool)
	nwarn := 0
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") {
			continue // generated test main
		}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if done[name] {
				continue
			}
			done[name] = true
			src, changed, warns, err := file(p.Fset, f, p.Types, p.TypesInfo, name, Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			nwarn += len(warns)
			for _, w := range warns {
				t.Logf("warning: %s", w)
			}
			if !changed {
				continue
			}
			out := filepath.Join(tmp, "overlay", strings.ReplaceAll(strings.TrimPrefix(name, dir), string(filepath.Separator), "_"))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, src, 0o644); err != nil {
				t.Fatal(err)
			}
			replace[name] = out
		}
	}
	t.Logf("%d files rewritten, %d warnings", len(replace), nwarn)
	ov, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod = append(mod, []byte("\nrequire interleave.dev v0.0.0\n\nreplace interleave.dev => "+repoRoot(t)+"\n")...)
	modfile := filepath.Join(tmp, "go.mod")
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		t.Fatal(err)
	}
	var sum []byte
	for _, d := range []string{dir, repoRoot(t)} {
		s, _ := os.ReadFile(filepath.Join(d, "go.sum"))
		sum = append(sum, s...)
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := goCmd(t, dir, "build", "-modfile="+modfile, "-overlay="+overlay, "./..."); err != nil {
		t.Fatalf("go build of the instrumented module: %v\n%s", err, out)
	}
	if out, err := goCmd(t, dir, "vet", "-modfile="+modfile, "-overlay="+overlay, "./..."); err != nil {
		t.Fatalf("go vet of the instrumented module: %v\n%s", err, out)
	}
	if os.Getenv("INSTRUMENT_CORPUS_TEST") != "" {
		out, err := goCmd(t, dir, "test", "-count=1", "-modfile="+modfile, "-overlay="+overlay, "./...")
		t.Logf("go test of the instrumented module:\n%s", out)
		if err != nil {
			t.Fatalf("go test of the instrumented module: %v", err)
		}
	}
}
