package rt

import (
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/internal/mcr"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/internal/strategy/dpor"
	"interleave.dev/rt/wire"
)

// localSolver answers strategy mcr's queries in this process.
type localSolver struct{}

func (localSolver) Solve(q *wire.MCRQuery) (*wire.MCRAnswer, error) { return mcr.Solve(q), nil }

// TestMCRTextbooks: on every small textbook program, strategy mcr reaches
// only outcomes that dpor (which reaches exactly dfs's,
// TestSystematicSoundness) reaches, since its schedules are real ones,
// and every one of them whenever it claims to have covered every state:
// all of them but readers-writers with two readers, whose read locks mcr
// reorders without claiming every state (readers-writers(2,1) lost one
// when it claimed them).
func TestMCRTextbooks(t *testing.T) {
	for _, p := range smallTextbooks() {
		p := p
		t.Run(p.name, func(t *testing.T) {
			dp := runSystematic(t, dpor.NewSource(0), p, 100000)
			m := causal.NewMCR(localSolver{}, 0)
			r := runSystematic(t, m, p, 100000)
			t.Logf("mcr: %d executions (dpor %d), %d queries, %d targets (%d sat, %d unsat, %d unknown), %v solving; %d outcomes; incomplete: %q",
				r.executions, dp.executions, m.Queries, m.Targets, m.Sat, m.Unsat, m.Unknown, m.SolverTime, len(r.outcomes), m.Incomplete())
			if err := m.Err(); err != nil {
				t.Fatal(err)
			}
			if r.finding != dp.finding {
				t.Errorf("mcr finding %q, dpor %q", r.finding, dp.finding)
			}
			for _, o := range r.outcomes {
				if !contains(dp.outcomes, o) {
					t.Errorf("mcr reaches %q, which dpor does not", o)
				}
			}
			if !m.Complete() {
				// mcr keeps the order of select statements
				// (docs/mpc.md), and says so.
				if !strings.HasPrefix(p.name, "readers-writers") && !p.selects() {
					t.Errorf("mcr did not cover %s: %q", p.name, m.Incomplete())
				}
				return
			}
			for _, o := range dp.outcomes {
				if !contains(r.outcomes, o) {
					t.Errorf("mcr claims every state but misses %q", o)
				}
			}
		})
	}
}

var mcrTable = flag.Bool("mcr.table", false, "print the executions of dpor and mcr on the textbook programs (docs/mpc.md)")

// TestMCRTable prints the textbook programs under dpor and mcr: the table
// of docs/mpc.md.
//
//	go test ./rt -run TestMCRTable -mcr.table -v
func TestMCRTable(t *testing.T) {
	if !*mcrTable {
		t.Skip("run with -mcr.table")
	}
	const limit = 20000
	var b strings.Builder
	b.WriteString("| program | dpor executions | dpor outcomes | mcr executions | solver queries | reads asked for a new value | found / infeasible / unknown | solver time | mcr outcomes | mcr covered every state |\n| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |\n")
	progs := append(smallTextbooks(), lastZero(4), lastZero(5), indexer(4, 2, 8), fileSystem(8, 32, 26), philosophers(4), peterson(3, false))
	for _, p := range progs {
		dp := runSystematic(t, dpor.NewOptimal(0), p, limit)
		m := causal.NewMCR(localSolver{}, 0)
		r := runSystematic(t, m, p, limit)
		if err := m.Err(); err != nil {
			t.Fatal(err)
		}
		cell := func(r sysResult) string {
			if !r.exhausted {
				return fmt.Sprintf(">%d", r.executions)
			}
			return fmt.Sprint(r.executions)
		}
		covered := "yes"
		if why := m.Incomplete(); len(why) > 0 {
			covered = "no: " + strings.Join(why, "; ")
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d | %d | %d / %d / %d | %v | %d | %s |\n", p.name, cell(dp), len(dp.outcomes), cell(r), m.Queries, m.Targets, m.Sat, m.Unsat, m.Unknown, m.SolverTime.Round(time.Millisecond), len(r.outcomes), covered)
	}
	t.Log("\n" + b.String())
}

// TestMCRDeadlock: the philosophers who all take their left fork first
// deadlock, and no read shows it (they read nothing): mcr reaches the
// deadlock by asking for states in which a philosopher waits for a fork
// another holds (wire.MCRTarget.Blocked).
func TestMCRDeadlock(t *testing.T) {
	for _, n := range []int{2, 3} {
		p := textbook{fmt.Sprintf("philosophers-left(%d)", n), func() string {
			forks := make([]sync.Mutex, n)
			done := spawnAll(n, func(i int) {
				Lock(&forks[i], tb(43))
				Lock(&forks[(i+1)%n], tb(44))
				Unlock(&forks[(i+1)%n], tb(45))
				Unlock(&forks[i], tb(46))
			})
			joinAll(done)
			return ""
		}}
		m := causal.NewMCR(localSolver{}, 0)
		r := runSystematic(t, m, p, 1000)
		if r.finding != sched.KindDeadlock {
			t.Errorf("%s: mcr: finding %q after %d executions, want a deadlock", p.name, r.finding, r.executions)
			continue
		}
		t.Logf("%s: mcr: deadlock after %d executions, %d queries", p.name, r.executions, m.Queries)
	}
}

// TestMCRNilMap: the contents of a nil map have no memory to read a value
// from (found on x/sync's syncmap tests): mcr runs the program without an
// error of its own.
func TestMCRNilMap(t *testing.T) {
	p := textbook{"nil-map", func() string {
		var m map[int]int
		Read(m, tb(50))
		return fmt.Sprint(m[1])
	}}
	if r := runSystematic(t, causal.NewMCR(localSolver{}, 0), p, 10); r.finding != "" || len(r.outcomes) != 1 {
		t.Errorf("finding %q, outcomes %q", r.finding, r.outcomes)
	}
}

// TestMCRQueueBound: the plans waiting to run are bounded; a search that
// finds more states than the queue holds drops them and says it is not
// complete, and what it runs is still real.
func TestMCRQueueBound(t *testing.T) {
	p := lastZero(3)
	dp := runSystematic(t, dpor.NewSource(0), p, 100000)
	m := causal.NewMCR(localSolver{}, 0)
	m.MaxQueued = 200
	r := runSystematic(t, m, p, 100000)
	why := strings.Join(m.Incomplete(), "; ")
	t.Logf("%d executions, %d of %d outcomes; %s", r.executions, len(r.outcomes), len(dp.outcomes), why)
	if m.Complete() || !strings.Contains(why, "more states were found than the queue holds") {
		t.Errorf("complete %v, incomplete %q", m.Complete(), why)
	}
	for _, o := range r.outcomes {
		if !contains(dp.outcomes, o) {
			t.Errorf("mcr reaches %q, which dpor does not", o)
		}
	}
}
