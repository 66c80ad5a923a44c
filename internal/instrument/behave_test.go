package instrument

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBehavior instruments small correct programs, with and without
// Options.Symbolic, builds them against
// the runtime of this repository, and checks that each prints exactly
// what the original prints: outside an exploration rt behaves like the
// operations it replaces.
func TestBehavior(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	progs, err := filepath.Glob("testdata/behave/*.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := tempModule(t)
	var names []string
	for _, p := range progs {
		name := strings.TrimSuffix(filepath.Base(p), ".go")
		names = append(names, name)
		pkg := loadFile(t, p)
		rewrite := func(opts Options) []byte {
			files, warns, err := Package(pkg, opts)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, w := range warns {
				t.Logf("%s: warning: %s", name, w)
			}
			abs, _ := filepath.Abs(p)
			out, ok := files[abs]
			if !ok {
				t.Fatalf("%s: nothing rewritten", p)
			}
			return out
		}
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs := map[string][]byte{"orig": orig, "inst": rewrite(Options{}), "sym": rewrite(Options{Symbolic: true})}
		for sub, src := range srcs {
			d := filepath.Join(dir, sub, name)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, filepath.Base(p)), src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if out, err := goCmd(t, dir, "vet", "./inst/...", "./sym/..."); err != nil {
		t.Fatalf("vet of the instrumented programs: %v\n%s", err, out)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			run := func(sub string) string {
				exe := filepath.Join(dir, "bin", sub+"-"+name)
				if out, err := goCmd(t, dir, "build", "-o", exe, "./"+sub+"/"+name); err != nil {
					t.Fatalf("build %s/%s: %v\n%s", sub, name, err, out)
				}
				out, err := exec.Command(exe).CombinedOutput()
				if err != nil {
					t.Fatalf("%s/%s: %v\n%s", sub, name, err, out)
				}
				return string(out)
			}
			want, got, sym := run("orig"), run("inst"), run("sym")
			t.Logf("output:\n%s", got)
			if got != want {
				t.Errorf("instrumented output differs\n--- original:\n%s--- instrumented:\n%s", want, got)
			}
			if sym != want {
				t.Errorf("output instrumented with Options.Symbolic differs\n--- original:\n%s--- instrumented:\n%s", want, sym)
			}
			if strings.TrimSpace(want) == "" {
				t.Errorf("program printed nothing")
			}
		})
	}
}
