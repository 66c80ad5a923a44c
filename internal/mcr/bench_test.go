package mcr

import (
	"testing"
	"time"

	"interleave.dev/rt/wire"
)

// synthetic is a trace of the size MCR meets in small tests: 3 threads of
// about 100 events (a go statement, locks around accesses, reads, writes
// and updates of five locations, one of them by halves), with every read
// access asked every value its location takes.
var synthetic = genConfig{threads: 3, perThread: 100, locs: 4, halves: true, locks: 2, values: 4}

func syntheticQuery() *wire.MCRQuery {
	tr := generate(1, synthetic)
	return &wire.MCRQuery{Trace: *tr, Targets: targets(tr)}
}

// Every sat prefix of the synthetic query passes the replay check, and
// every read can at least return its own trace value (the trace itself is
// such a schedule). The test asks a fifth of the targets (the benchmark
// asks them all).
func TestSyntheticTrace(t *testing.T) {
	q := syntheticQuery()
	var some []wire.MCRTarget
	for i := 0; i < len(q.Targets); i += 5 {
		some = append(some, q.Targets[i])
	}
	q.Targets = some
	start := time.Now()
	rs := solveChecked(t, q)
	took := time.Since(start)
	count := map[string]int{}
	var micros int64
	for i, r := range rs {
		count[r.Status]++
		micros += r.Micros
		tg := q.Targets[i]
		acc := q.Trace.Events[tg.Event].Acc[tg.Acc]
		if (acc.RV^tg.Value)&acc.Mask == 0 && r.Status != sat {
			t.Errorf("target %+v, the trace's own value: %s", tg, r.Status)
		}
	}
	t.Logf("%d events, %d targets %v in %v (%d us in the targets)", len(q.Trace.Events), len(rs), count, took, micros)
	if count[sat] == 0 || count[unsat] == 0 || count[wire.MCRUnknown] > 0 {
		t.Errorf("want sat and unsat targets and no unknown: %v", count)
	}
}

// BenchmarkSynthetic solves the synthetic query: one op is one query
// (context, base constraints, every target); us/target is the solver's
// time per target as MCRResult.Micros reports it.
func BenchmarkSynthetic(b *testing.B) {
	q := syntheticQuery()
	var micros, n int64
	for b.Loop() {
		a := Solve(q)
		if a.Error != "" {
			b.Fatal(a.Error)
		}
		for _, r := range a.Results {
			micros += r.Micros
			n++
		}
	}
	b.ReportMetric(float64(len(q.Targets)), "targets")
	b.ReportMetric(float64(micros)/float64(n), "us/target")
}

// A check that runs out of time is answered unknown with Z3's reason, not
// dropped, and the other targets are still answered.
func TestTimeoutIsUnknown(t *testing.T) {
	q := syntheticQuery()
	var some []wire.MCRTarget
	for i := 0; i < len(q.Targets); i += 20 {
		some = append(some, q.Targets[i])
	}
	q.Targets, q.TimeoutMillis = some, 1
	rs := solveChecked(t, q)
	unknown := 0
	for i, r := range rs {
		if r.Status == wire.MCRUnknown {
			unknown++
			if r.Reason == "" {
				t.Errorf("target %d: unknown with no reason", i)
			}
		}
	}
	t.Logf("%d of %d targets unknown under a 1 ms timeout; reason of the first: %q", unknown, len(rs), rs[0].Reason)
	if unknown == 0 {
		t.Error("no target ran out of 1 ms")
	}
}

// A query whose budget runs out answers its remaining targets unknown,
// with the reason wire.MCRBudgetOut, and returns at once.
func TestBudgetIsUnknown(t *testing.T) {
	q := syntheticQuery()
	q.BudgetMillis = 1
	start := time.Now()
	rs := solveChecked(t, q)
	out := 0
	for _, r := range rs {
		if r.Status == wire.MCRUnknown && r.Reason == wire.MCRBudgetOut {
			out++
		}
	}
	t.Logf("%d of %d targets left unchecked by a 1 ms budget, in %v", out, len(rs), time.Since(start))
	if out < len(rs)/2 {
		t.Errorf("only %d of %d targets left unchecked by a 1 ms budget", out, len(rs))
	}
}
