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

// TestMapRangeForms instruments testdata/mapforms/forms.go, a program
// that ranges over maps in every form of the statement under an
// exploration, as a file of Go 1.22, whose ranges over maps become loops
// over rt.MapIter, and as one of Go 1.23, whose ranges range over
// rt.RangeMap: both print the same, schedule by schedule (the same
// entries in the same orders), and the orders differ between schedules.
func TestMapRangeForms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	src, err := os.ReadFile("testdata/mapforms/forms.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := tempModule(t)
	t.Setenv("GOFLAGS", "-mod=mod") // loading in the module, as goCmd builds there
	t.Setenv("GOWORK", "off")
	out := map[string]string{}
	for _, v := range []string{"go1.22", "go1.23"} {
		d := filepath.Join(dir, "orig", v)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "forms.go")
		if err := os.WriteFile(p, []byte(strings.Replace(string(src), "//go:build go1.22", "//go:build "+v, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		files, _, err := Package(loadFile(t, p), Options{})
		if err != nil {
			t.Fatal(err)
		}
		inst := files[p]
		if !strings.Contains(string(inst), map[string]string{"go1.22": "RangeMapIter(", "go1.23": "RangeMap("}[v]) {
			t.Fatalf("%s: the ranges are not rewritten as expected:\n%s", v, inst)
		}
		d = filepath.Join(dir, "inst", v)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "forms.go"), inst, 0o644); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(dir, "bin", v)
		if b, err := goCmd(t, dir, "build", "-o", exe, "./inst/"+v); err != nil {
			t.Fatalf("build %s: %v\n%s", v, err, b)
		}
		b, err := exec.Command(exe).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", v, err, b)
		}
		out[v] = string(b)
	}
	if out["go1.22"] != out["go1.23"] {
		t.Errorf("the forms differ\n--- go1.23 (rt.RangeMap):\n%s--- go1.22 (rt.MapIter):\n%s", out["go1.23"], out["go1.22"])
	}
	lines := strings.Split(strings.TrimSpace(out["go1.22"]), "\n")
	distinct := map[string]bool{}
	for _, l := range lines {
		distinct[l] = true
	}
	t.Logf("%d schedules, %d outputs; the first:\n%s", len(lines), len(distinct), lines[0])
	if len(lines) < 40 || len(distinct) < 20 {
		t.Errorf("%d schedules printed %d different lines: the orders do not follow the schedule", len(lines), len(distinct))
	}
}
