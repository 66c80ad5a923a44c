package difftest

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev"
	"interleave.dev/internal/bench"
	"interleave.dev/internal/driver"
	"interleave.dev/internal/instrument"
)

// builder builds instrumented test binaries as the command does: the
// driver with internal/instrument.
func builder() *bench.DriverBuilder {
	inst := func(opts instrument.Options) driver.InstrumentFunc {
		return func(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []driver.Warning, error) {
			src, warns, err := instrument.File(fset, f, pkg, info, filename, opts)
			out := make([]driver.Warning, len(warns))
			for i, w := range warns {
				out[i] = driver.Warning{Pos: w.Pos, Msg: w.Msg}
			}
			return src, out, err
		}
	}
	return &bench.DriverBuilder{
		Instrument:     inst(instrument.Options{RuntimeImport: driver.RuntimeImport}),
		InstrumentMain: inst(instrument.Options{RuntimeImport: driver.RuntimeImport, Symbolic: true}),
		GoFlags:        []string{"-p=1"},
	}
}

var (
	solverOnce sync.Once
	solverPath string
	solverErr  error
)

// solver builds interleave-solver once per test run.
func solver(t *testing.T) string {
	t.Helper()
	solverOnce.Do(func() {
		cache, err := driver.CacheDir()
		if err != nil {
			solverErr = err
			return
		}
		solverPath, solverErr = driver.BuildSolver(context.Background(), cache, interleave.SolverSource, os.Environ())
	})
	if solverErr != nil {
		t.Logf("no solver, so no strategy mcr: %v", solverErr)
		return ""
	}
	return solverPath
}

// withoutMCR drops strategy mcr from cfg when there is no solver.
func withoutMCR(cfg Config) Config {
	if cfg.Solver != "" {
		return cfg
	}
	var ss []string
	for _, s := range cfg.withDefaults().Strategies {
		if s != "mcr" && s != "mpc" {
			ss = append(ss, s)
		}
	}
	cfg.Strategies = ss
	return cfg
}

func TestGenerate(t *testing.T) {
	kinds := map[string]bool{}
	subtests := 0
	for seed := int64(1); seed <= 300; seed++ {
		p := Generate(seed)
		if p.Subtests {
			subtests++
			if !strings.Contains(p.Render(false).Source, "t.Parallel()") {
				t.Errorf("seed %d: a subtest program without t.Parallel", seed)
			}
		}
		if n := len(p.Gs); n < 2 || n > 5 {
			t.Errorf("seed %d: %d goroutines", seed, n)
		}
		if n := p.Size() - len(p.Pre); n < 5 || n > 40 {
			t.Errorf("seed %d: %d statements", seed, n)
		}
		a, _ := MarshalProgram(p)
		b, _ := MarshalProgram(Generate(seed))
		if string(a) != string(b) {
			t.Fatalf("seed %d: two programs", seed)
		}
		for _, k := range p.Kinds() {
			kinds[k] = true
		}
		// The Racy form differs from the Safe form in the planted
		// statement alone.
		planted := 0
		for _, g := range p.Gs {
			for _, s := range g.Stmts {
				if s.Racy != "" {
					planted++
				}
			}
		}
		// A deep bug is in the Bug form alone.
		for _, g := range p.Gs {
			for _, s := range g.Stmts {
				if strings.HasPrefix(s.Kind, "deep.") && (s.Code != "" || s.Bug == "" || !p.Bugs) {
					t.Errorf("seed %d: deep statement %s in a form other than Bug: %+v", seed, s.Kind, s)
				}
			}
		}
		if p.Planted != (planted == 1) || planted > 1 {
			t.Errorf("seed %d: planted %v with %d racy statements", seed, p.Planted, planted)
		}
	}
	if subtests < 50 || subtests > 100 {
		t.Errorf("%d of 300 programs run parallel subtests, want about a quarter", subtests)
	}
	for _, want := range []string{"map.range", "map.len", "map.rangedelete", "slice.range", "array.rangeindex", "select.multi", "select.timeafter", "cond.wait", "ctx.done", "once.func", "atomic.add", "syncmap.range", "time.ticker", "panic.recover", "seq.select", "deep.abandonedsender", "deep.lockorder", "deep.recursiverlock", "deep.doubleclose", "pipe.readall", "netpipe.readall", "mctx.done", "runtime.finalizer", "runtime.weak", "test.cleanup", "seq.allocs", "seq.memstats", "seq.weak", "seq.finalizer", "seq.addcleanup", "seq.reflectselect", "seq.mctx", "seq.iopipe", "seq.netpipe", "seq.netdeadline"} {
		if !kinds[want] {
			t.Errorf("300 programs have no statement %s", want)
		}
	}
}

// TestShrink shrinks a program for a predicate with a known answer: two
// statements of two goroutines.
func TestShrink(t *testing.T) {
	p := Generate(7)
	for len(p.Gs) < 3 {
		p.Gs = append(p.Gs, &Goroutine{Join: "wg"})
	}
	p.Gs[1].Stmts = append(p.Gs[1].Stmts, Stmt{Kind: "needle.a", Code: "acc++"})
	p.Gs[2].Stmts = append([]Stmt{{Kind: "needle.b", Code: "acc--"}}, p.Gs[2].Stmts...)
	has := func(q *Program, kind string) bool {
		for _, g := range q.Gs {
			for _, s := range g.Stmts {
				if s.Kind == kind {
					return true
				}
			}
		}
		return false
	}
	calls := 0
	q := Shrink(p, func(q *Program) bool { calls++; return has(q, "needle.a") && has(q, "needle.b") }, 500)
	if q.Size() != 2 || !has(q, "needle.a") || !has(q, "needle.b") {
		t.Errorf("shrunk to %d statements %v (of %d), want the two needles", q.Size(), q.Kinds(), p.Size())
	}
	if len(q.Gs) != 3 {
		t.Errorf("%d goroutines left, want the test goroutine and the two of the needles", len(q.Gs))
	}
	t.Logf("%d statements shrunk to 2 in %d tests", p.Size(), calls)
}

// sliceSeeds are the programs of the fixed-seed slice.
const sliceSeeds = 8

// TestSlice runs a fixed-seed slice of programs end to end: every
// strategy, native runs, replays, and once more every strategy with race
// detection off on the Racy forms, a planted defect the race oracle must
// catch. It fails on a program the generator got wrong (Go disagrees
// with its construction) and on a planted defect that goes unnoticed;
// the tool's own discrepancies are logged, and fail the test with
// DIFFTEST_STRICT=1.
func TestSlice(t *testing.T) {
	if testing.Short() {
		t.Skip("the slice builds and runs programs")
	}
	cfg := withoutMCR(Config{Builder: builder(), Solver: solver(t), Schedules: 300, SystematicSchedules: 5000, Budget: 3 * time.Second, NativeCount: 5, Replays: 3, NoRace: true})
	strict := os.Getenv("DIFFTEST_STRICT") != ""
	start := time.Now()
	planted := 0
	for seed := int64(1); seed <= sliceSeeds; seed++ {
		p := Generate(seed)
		o, err := Observe(context.Background(), cfg, p, filepath.Join(t.TempDir(), "p"))
		if err != nil {
			t.Fatal(err)
		}
		v := Judge(o)
		fired := map[string]bool{}
		for _, d := range v.Discrepancies {
			switch {
			case d.Oracle == OracleHarness:
				t.Errorf("seed %d: %s", seed, d)
			case strings.HasSuffix(d.Class, "(race detection off)"):
				fired[d.Strategy] = true
			case strict:
				t.Errorf("seed %d: %s", seed, d)
			default:
				t.Logf("seed %d: %s", seed, d)
			}
		}
		if n := o.Native[Racy]; n != nil && len(n.Races) > 0 {
			planted++
			for _, s := range cfg.withDefaults().Strategies {
				if !fired[s] {
					t.Errorf("seed %d: go test -race reports a race, %s ran without race detection and the race oracle did not fire", seed, s)
				}
			}
		}
	}
	if planted == 0 {
		t.Errorf("no program of the slice has a race go test -race reports: the planted defect was never tried")
	}
	t.Logf("%d programs in %s", sliceSeeds, time.Since(start).Round(time.Second))
}

// TestRegress observes the shrunk programs saved under testdata/regress
// under the strategies their discrepancy needs. A program whose
// discrepancy.txt says "expect: fixed" fails the test when its
// discrepancy shows again. One that says "expect: open" (a defect not
// fixed yet) is observed only with DIFFTEST_OPEN=1, and logged, with a
// note when it no longer shows (flip it to fixed).
func TestRegress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	dirs, _ := filepath.Glob(filepath.Join("testdata", "regress", "*", "program.json"))
	if len(dirs) == 0 {
		t.Skip("no regression programs")
	}
	for _, path := range dirs {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			p, err := ReadProgram(path)
			if err != nil {
				t.Fatal(err)
			}
			text, err := os.ReadFile(filepath.Join(dir, "discrepancy.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var key string
			fixed := false
			for _, l := range strings.Split(string(text), "\n") {
				if k, ok := strings.CutPrefix(l, "key: "); ok {
					key = k
				}
				if strings.TrimSpace(l) == "expect: fixed" {
					fixed = true
				}
			}
			if !fixed && os.Getenv("DIFFTEST_OPEN") == "" {
				t.Skip("expect: open (DIFFTEST_OPEN=1 observes it)")
			}
			parts := strings.SplitN(key, "|", 4)
			if len(parts) != 4 {
				t.Fatalf("bad key %q", key)
			}
			d := Discrepancy{Oracle: parts[0], Class: parts[1], Form: Form(parts[2]), Strategy: parts[3]}
			cfg := Config{Builder: builder(), Schedules: 1000, SystematicSchedules: 10000, Budget: 5 * time.Second, NativeCount: 5, Replays: 5, Robust: true}
			if strings.Contains(key, "mcr") || strings.Contains(key, "mpc") {
				cfg.Solver = solver(t)
			}
			shows := Still(context.Background(), cfg, d, t.TempDir())(p)
			switch {
			case shows && fixed:
				t.Errorf("shows again: %s", d)
			case shows:
				t.Logf("still open: %s", d)
			case !fixed:
				t.Logf("no longer shows (set expect: fixed in discrepancy.txt): %s", d)
			}
		})
	}
}
