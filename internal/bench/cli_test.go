package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// The bench test binary doubles as a fake instrumented test binary: when
// fakeEnv is set, it behaves like the runtime inside a kernel's test binary
// (read INTERLEAVE_CONFIG, append a wire.Result) instead of running tests.
const fakeEnv = "BENCH_FAKE_TEST_BINARY"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		os.Exit(fakeTestBinary())
	}
	os.Exit(m.Run())
}

// fakeTestBinary plays a kernel's test binary: in buggy/ random finds a
// deadlock after 2*seed schedules and dfs exhausts the space; in fixed/
// every strategy passes; in partial/ it crashes without a result.
func fakeTestBinary() int {
	cfg, err := wire.LoadConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	wd, _ := os.Getwd()
	r := wire.Result{Test: "TestFake", Strategy: cfg.Strategy, Seed: cfg.Seed, Outcome: wire.OutcomePass, Schedules: cfg.Schedules, Seconds: 0.25}
	switch filepath.Base(wd) {
	case Buggy:
		if cfg.Strategy == "random" {
			r.Outcome, r.Kind, r.Schedules, r.Message = wire.OutcomeFinding, "deadlock", int(2*cfg.Seed), "all goroutines are blocked"
		} else {
			r.Schedules, r.Exhausted = 12, true
		}
	case Partial:
		fmt.Println("panic: the runtime crashed")
		return 2
	}
	if err := wire.AppendResult(cfg.Results, r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if r.Outcome == wire.OutcomeFinding {
		return 1
	}
	return 0
}

// fakeBuilder "builds" every package as a copy of the running test binary.
type fakeBuilder struct{ builds int }

func (b *fakeBuilder) Build(ctx context.Context, dir string, pkgs []string, outDir string) error {
	b.builds++
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, p := range pkgs {
		if err := copyFile(self, filepath.Join(outDir, filepath.Base(p)+".test")); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeKernel creates a kernel directory with kernel.json and the variant
// directories.
func writeKernel(t *testing.T, root, name string, partial bool) {
	t.Helper()
	dir := filepath.Join(root, name)
	variants := []string{Buggy, Fixed}
	if partial {
		variants = append(variants, Partial)
	}
	for _, v := range variants {
		if err := os.MkdirAll(filepath.Join(dir, v), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	js := fmt.Sprintf(`{"name": %q, "class": "deadlock", "detect": "deadlock", "description": "d", "source": "s", "hard": false, "partial": %v}`, name, partial)
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMainWithFakeBinaries(t *testing.T) {
	t.Setenv(fakeEnv, "1")
	root := t.TempDir()
	writeKernel(t, root, "alpha", true)
	writeKernel(t, root, "beta", false)
	out := t.TempDir()
	md, js := filepath.Join(out, "k.md"), filepath.Join(out, "k.json")
	b := &fakeBuilder{}
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"-suite", root, "-strategies", "random,dfs", "-seeds", "3", "-md", md, "-json", js}, &stdout, &stderr, b)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (the partial variant's runs failed)\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	if b.builds != 2 {
		t.Errorf("%d builds, want one per kernel", b.builds)
	}
	text := stdout.String()
	for _, s := range []string{
		"random: buggy 2/2 detected, partial 0/1 (6/6 runs), median 4 schedules to detection; false reports on 0/2 fixed twins (0 runs); 3 runs failed",
		"dfs:    buggy 0/2 detected, partial 0/1 (0/2 runs); false reports on 0/2 fixed twins (0 runs); 1 runs failed",
		"FAILED RUN alpha/partial random seed 1: test binary: exit status 2: panic: the runtime crashed",
		"bench: 2 kernels, 20 runs in",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("stdout lacks %q:\n%s", s, text)
		}
	}
	mdText, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"| alpha **P** | deadlock: deadlock | buggy | random | 3/3 | 4 (2-6) | 250.0 |  | deadlock 3 |",
		"|  |  | buggy | dfs (exhausted 1) | 0/1 | - | 250.0 |  |  |",
		"|  |  | partial | random | 0/3 (3 failed) | - | - |  |  |",
		"|  |  | fixed | random | - | - | 250.0 | 0 |  |",
	} {
		if !strings.Contains(string(mdText), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, mdText)
		}
	}

	// Rendering the JSON again gives the same report.
	md2 := filepath.Join(out, "k2.md")
	stdout.Reset()
	if code := Main(context.Background(), []string{"-render", js, "-md", md2, "-json", ""}, &stdout, &stderr, b); code != 1 {
		t.Errorf("-render: exit status %d, want 1", code)
	}
	mdAgain, err := os.ReadFile(md2)
	if err != nil {
		t.Fatal(err)
	}
	if string(mdAgain) != string(mdText) {
		t.Errorf("-render gives a different Markdown:\n%s\nwant:\n%s", mdAgain, mdText)
	}
	if b.builds != 2 {
		t.Errorf("-render built something")
	}
}

func TestMainUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-variants", "nope"}, &stdout, &stderr, &fakeBuilder{}); code != 2 {
		t.Errorf("bad -variants: exit status %d, want 2", code)
	}
	if code := Main(context.Background(), []string{"-suite", t.TempDir()}, &stdout, &stderr, &fakeBuilder{}); code != 2 || !strings.Contains(stderr.String(), "no kernels") {
		t.Errorf("empty suite: exit status %d, stderr %q", code, stderr.String())
	}
}
