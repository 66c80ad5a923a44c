package rt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"interleave.dev/rt/internal/explore"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/dpor"
	"interleave.dev/rt/internal/strategy/hapset"
	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// The command reads the defaults of strategy hapset from package wire.
func TestHaPSetDefaults(t *testing.T) {
	if wire.DefaultHaPSetK != hapset.DefaultK || wire.DefaultHaPSetLearn != hapset.DefaultLearn {
		t.Errorf("wire's hapset defaults (%d, %d) differ from the strategy's (%d, %d)", wire.DefaultHaPSetK, wire.DefaultHaPSetLearn, hapset.DefaultK, hapset.DefaultLearn)
	}
}

// reloadSites are the statements of reloadWindow, as an instrumented
// file would register them.
var reloadSites = RegisterFile("reload_window.go", "",
	10, 2, 11, 2, 12, 2, 14, 3, 15, 3, 16, 3, // the reader: check, use
	20, 2, 21, 2, 22, 2, // serve
	30, 2, 31, 2, 32, 2, 33, 2, 34, 2, 35, 2, // reload: clear, install
)

// reloadWindow is the kernel hapset-reload-window as the instrumenter
// would rewrite it, with every access locked: a reader checks a pointer
// and then uses it in two critical sections; a reloader clears it and
// then installs a new one, after serving eight requests on another
// mutex, as four workers do four times each. The reader dereferences nil
// only when its use falls between the reloader's two critical sections:
// one reordering behind some 10^12 equivalent orders of the serving
// locks.
func reloadWindow(fixed bool) textbook {
	s := func(k int) Site { return reloadSites + Site(k) }
	return textbook{"reload-window", func() string {
		type config struct{ limit int }
		var mu, smu sync.Mutex
		p := &config{10}
		served := 0
		serve := func() {
			Lock(&smu, s(6))
			Write(&served, s(7))
			served++
			Unlock(&smu, s(8))
		}
		done := spawnAll(6, func(i int) {
			switch {
			case i == 0:
				Lock(&mu, s(0))
				Read(&p, s(1))
				c := p
				ok := p != nil
				Unlock(&mu, s(2))
				if ok {
					Lock(&mu, s(3))
					Read(&p, s(4))
					if !fixed {
						c = p
					}
					_ = c.limit // nil: the panic
					Unlock(&mu, s(5))
				}
			case i < 5:
				for k := 0; k < 4; k++ {
					serve()
				}
			default:
				for k := 0; k < 8; k++ {
					serve()
				}
				Lock(&mu, s(9))
				Write(&p, s(10))
				p = nil
				Unlock(&mu, s(11))
				Lock(&mu, s(12))
				Write(&p, s(13))
				p = &config{20}
				Unlock(&mu, s(14))
			}
		})
		joinAll(done)
		return ""
	}}
}

func hapsetOn(search string, store *hapset.HaPSets) strategy.Strategy {
	c := &strategies.Setup{Seed: 1}
	c.HaPSet.Search, c.HaPSet.Store, c.HaPSet.SiteKey = search, store, explore.SiteKey
	st, err := strategies.New("hapset", c)
	if err != nil {
		panic(err)
	}
	return st
}

// TestHaPSetFindsHiddenReordering reproduces the headline of the HaPSet
// paper (section 5) on reloadWindow: guided by HaPSets, dpor and bounded
// dpor find the bug within a few dozen executions, where plain dpor and pcb (and
// random scheduling) do not within ten times as many; and nothing is
// reported on the fixed program.
func TestHaPSetFindsHiddenReordering(t *testing.T) {
	const budget = 500
	h := runSystematic(t, hapsetOn("dpor", hapset.NewHaPSets()), reloadWindow(false), budget)
	if h.finding != sched.KindPanic || h.executions > budget/10 {
		t.Errorf("hapset: finding %q after %d executions, want a panic within %d", h.finding, h.executions, budget/10)
	}
	if hp := runSystematic(t, hapsetOn("pcb", hapset.NewHaPSets()), reloadWindow(false), budget); hp.finding != sched.KindPanic || hp.executions > budget/10 {
		t.Errorf("hapset on pcb: finding %q after %d executions, want a panic within %d", hp.finding, hp.executions, budget/10)
	}
	for _, st := range []strategy.Strategy{dpor.NewSource(0), strategy.NewPCB(2, 0), strategy.NewRandom(1)} {
		r := runSystematic(t, st, reloadWindow(false), budget)
		t.Logf("%s: finding %q after %d executions", st.Name(), r.finding, r.executions)
		if r.finding != "" && r.executions <= h.executions {
			t.Errorf("%s found the bug after %d executions, hapset after %d", st.Name(), r.executions, h.executions)
		}
	}
	if r := runSystematic(t, hapsetOn("dpor", hapset.NewHaPSets()), reloadWindow(true), budget); r.finding != "" {
		t.Errorf("hapset on the fixed program: %q", r.finding)
	}
}

// TestHaPSetStorePersists: what one exploration learns is saved, loaded
// by the next, which skips the learning runs and the orderings covered
// already; the run that found a bug is not learned from, so that the
// next exploration finds it again; a corrupt store is an error that
// names the way out, and is left as it was.
func TestHaPSetStorePersists(t *testing.T) {
	dir := t.TempDir()
	for _, fixed := range []bool{false, true} {
		path := filepath.Join(dir, fmt.Sprint(fixed))
		store := hapset.NewHaPSets()
		h1 := hapsetOn("dpor", store).(*hapset.HaPSet)
		first := runSystematic(t, h1, reloadWindow(fixed), 200)
		if store.Len() == 0 {
			t.Fatal("nothing learned")
		}
		if err := store.Save(path); err != nil {
			t.Fatal(err)
		}
		loaded, err := hapset.LoadHaPSets(path)
		if err != nil || loaded.Len() != store.Len() || loaded.New() != 0 {
			t.Fatalf("loaded %d pairs (%d new), err %v; saved %d", loaded.Len(), loaded.New(), err, store.Len())
		}
		hs := hapsetOn("dpor", loaded).(*hapset.HaPSet)
		second := runSystematic(t, hs, reloadWindow(fixed), 200)
		// The guided search's executions: once it has no uncovered
		// ordering left, random runs use the rest of the budget.
		g1, g2 := first.executions-h1.After, second.executions-hs.After
		t.Logf("fixed %v: %d then %d guided executions, %d pairs", fixed, g1, g2, store.Len())
		if hs.Learning != 0 || g2 > g1 || fixed && g2 == g1 {
			t.Errorf("fixed %v: second exploration: %d learning runs, %d guided executions (first: %d); want none and fewer", fixed, hs.Learning, g2, g1)
		}
		if second.finding != first.finding {
			t.Errorf("fixed %v: finding %q, then %q", fixed, first.finding, second.finding)
		}
	}

	path := filepath.Join(dir, "corrupt")
	if err := os.WriteFile(path, []byte("not a store\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Explore("TestX", Options{Strategy: "hapset", HaPSetFile: path, ScheduleDir: "-"}, func() {})
	if err == nil || !strings.Contains(err.Error(), "-hapset-reset") {
		t.Errorf("corrupt store: err %v, want one naming -hapset-reset", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "not a store\n" {
		t.Errorf("the corrupt store was changed: %q", b)
	}
	if _, err := Explore("TestX", Options{Strategy: "hapset", HaPSetFile: path, HaPSetReset: true, ScheduleDir: "-"}, func() {}); err != nil {
		t.Errorf("with HaPSetReset: %v", err)
	}
}
