package difftest

import (
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// observation returns an observation of a program with a Safe, a Racy
// and a Bug form, its Racy form's planted race on line 20 racing with
// line 30, and native runs that saw that race and the outcome "a".
func observation(runs ...*Run) *Observation {
	p := &Program{Seed: 1, Planted: true, Bugs: true, Gs: []*Goroutine{
		{Join: "main", Stmts: []Stmt{{Kind: "map.set", Code: "s.m[1] = 2", Group: "map", Write: true}}},
		{Join: "wg", Stmts: []Stmt{{Kind: "map.range", Code: "x", Racy: "y", Group: "map"}}},
	}}
	r := &Rendered{Planted: 20, HeaderEnd: 10, Lines: map[int]Line{
		20: {Form: Racy, G: 1, S: 0},
		30: {Form: Racy, G: 0, S: 0},
	}}
	nat := func() *Native {
		n := newNative()
		n.Runs = 80
		n.Outcomes["a"] = 80
		n.Seq["seq"] = 80
		return n
	}
	racy := nat()
	racy.Races[NewPair(30, 20)] = 3
	return &Observation{Program: p, Rendered: r, Native: map[Form]*Native{Safe: nat(), Racy: racy, Bug: nat()}, Runs: runs}
}

func run(f Form, s string, outcome, kind string, exhausted bool, outcomes ...string) *Run {
	r := &Run{Form: f, Strategy: s, Seed: 1, Result: &wire.Result{Outcome: outcome, Kind: kind, Exhausted: exhausted, Schedules: 7}, Outcomes: map[string]int{}, Seq: map[string]int{"seq": 1}}
	for _, o := range outcomes {
		r.Outcomes[o]++
	}
	return r
}

func classes(v *Verdicts) []string {
	var cs []string
	for _, d := range v.Discrepancies {
		cs = append(cs, d.Oracle+": "+d.Class+" ("+string(d.Form)+", "+d.Strategy+")")
	}
	return cs
}

func hasClass(v *Verdicts, oracle, class string) bool {
	for _, d := range v.Discrepancies {
		if d.Oracle == oracle && d.Class == class {
			return true
		}
	}
	return false
}

func TestRaceOracle(t *testing.T) {
	race := func(s string, a, b int) *Run {
		r := run(Racy, s, wire.OutcomeFinding, "data race", false)
		p := NewPair(a, b)
		r.Race = &p
		return r
	}
	// Agreement: interleave reports the pair Go reported.
	v := &Verdicts{}
	JudgeRaces(observation(race("random", 20, 30), race("dfs", 30, 20)), v)
	if len(v.Discrepancies) != 0 {
		t.Errorf("agreement judged as %v", classes(v))
	}
	// A strategy that passes where Go saw the race missed it; one with
	// race detection off too; a systematic one saying verified claims
	// what is false.
	off := run(Racy, "random", wire.OutcomePass, "", false)
	off.NoRace = true
	v = &Verdicts{}
	JudgeRaces(observation(run(Racy, "pct", wire.OutcomePass, "", false), off, run(Racy, "dpor", wire.OutcomePass, "", true)), v)
	for _, want := range []string{"missed race", "missed race (race detection off)", "verified but go reports a race"} {
		if !hasClass(v, OracleRaces, want) {
			t.Errorf("no %q among %v", want, classes(v))
		}
	}
	// A race that random finds only once timers may fire early needs a
	// stall, and is named so.
	o := observation(run(Racy, "random", wire.OutcomePass, "", false))
	o.Eager = map[Form]*Run{Racy: race("random", 20, 30)}
	v = &Verdicts{}
	JudgeRaces(o, v)
	if !hasClass(v, OracleRaces, "missed race that needs a stall") {
		t.Errorf("a race eager timers find judged as %v", classes(v))
	}
	// A race on the Safe form, or away from the planted line, is false.
	v = &Verdicts{}
	safe := run(Safe, "random", wire.OutcomeFinding, "data race", false)
	JudgeRaces(observation(safe, race("pcb", 30, 40)), v)
	if n := len(v.Discrepancies); n != 2 || !hasClass(v, OracleRaces, "false race") {
		t.Errorf("false races judged as %v", classes(v))
	}
	// A race in a helper of the header is on the planted line's behalf.
	v = &Verdicts{}
	JudgeRaces(observation(race("random", 5, 30)), v)
	if len(v.Discrepancies) != 0 {
		t.Errorf("race through a helper judged as %v", classes(v))
	}
	// Go reporting a race on the Safe form is the generator's fault.
	o = observation()
	o.Native[Safe].Races[NewPair(20, 30)] = 1
	v = &Verdicts{}
	JudgeRaces(o, v)
	if !hasClass(v, OracleHarness, "go reports a race on the Safe form") {
		t.Errorf("race on the Safe form natively judged as %v", classes(v))
	}
}

func TestOutcomeOracle(t *testing.T) {
	// dfs covered every interleaving of Safe and reached a and b.
	dfs := run(Safe, "dfs", wire.OutcomePass, "", true, "a", "b")
	v := &Verdicts{}
	JudgeOutcomes(observation(dfs, run(Safe, "dpor", wire.OutcomePass, "", true, "a", "b"), run(Safe, "random", wire.OutcomePass, "", false, "a")), v)
	if len(v.Discrepancies) != 0 {
		t.Errorf("agreement judged as %v", classes(v))
	}
	// dpor verified with an outcome missing, mcr with an outcome too
	// many, random with a finding, and a native outcome dfs never
	// reached.
	o := observation(dfs, run(Safe, "dpor", wire.OutcomePass, "", true, "a"), run(Safe, "mcr", wire.OutcomePass, "", true, "a", "b", "c"),
		run(Safe, "random", wire.OutcomeFinding, "deadlock", false))
	o.Native[Safe].Outcomes["d"] = 1
	v = &Verdicts{}
	JudgeOutcomes(o, v)
	for _, want := range []string{"verified but misses outcomes dfs reached", "outcome dfs never reached", "finding where dfs covered every interleaving without one", "native outcome dfs never reached"} {
		if !hasClass(v, OracleOutcomes, want) {
			t.Errorf("no %q among %v", want, classes(v))
		}
	}
	// A native outcome that random under -timers=eager reaches needs a
	// goroutine stalled past a timeout: not a discrepancy. One that it
	// does not reach either is.
	o = observation(dfs)
	o.Native[Safe].Outcomes["late"] = 1
	o.Eager = map[Form]*Run{Safe: run(Safe, "random", wire.OutcomePass, "", false, "a", "b", "late")}
	v = &Verdicts{}
	JudgeOutcomes(o, v)
	if len(v.Discrepancies) != 0 {
		t.Errorf("a native outcome eager timers reach judged as %v", classes(v))
	}
	o.Native[Safe].Outcomes["never"] = 1
	v = &Verdicts{}
	JudgeOutcomes(o, v)
	if !hasClass(v, OracleOutcomes, "native outcome dfs never reached") || len(v.Discrepancies) != 1 {
		t.Errorf("a native outcome no timer policy reaches judged as %v", classes(v))
	}
	// A doctored result: dpor says verified while dfs found a bug on the
	// Bug form; random passes where dfs found one.
	v = &Verdicts{}
	JudgeOutcomes(observation(run(Bug, "dfs", wire.OutcomeFinding, "deadlock", false), run(Bug, "dpor", wire.OutcomePass, "", true),
		run(Bug, "random", wire.OutcomePass, "", false), run(Bug, "pct", wire.OutcomeFinding, "deadlock", false)), v)
	if !hasClass(v, OracleOutcomes, "verified but dfs finds a bug") || !hasClass(v, OracleOutcomes, "missed bug dfs finds") || len(v.Discrepancies) != 2 {
		t.Errorf("verified-but-buggy judged as %v", classes(v))
	}
	if len(v.Detections) != 2 || !v.Detections[1].Found || v.Detections[0].Found {
		t.Errorf("detections %+v", v.Detections)
	}
}

func TestSemanticsOracle(t *testing.T) {
	o := observation(run(Safe, "random", wire.OutcomePass, "", false))
	o.Program.Pre = []Stmt{{Kind: "seq.chan", Code: "x"}}
	v := &Verdicts{}
	JudgeSemantics(o, v)
	if len(v.Discrepancies) != 0 {
		t.Errorf("agreement judged as %v", classes(v))
	}
	o.Runs[0].Seq = map[string]int{"other": 1}
	JudgeSemantics(o, v)
	if !hasClass(v, OracleSemantics, "sequential value differs from native") {
		t.Errorf("a differing value judged as %v", classes(v))
	}
}

func TestReplayOracle(t *testing.T) {
	r := run(Bug, "random", wire.OutcomeFinding, "deadlock", false)
	o := observation(r)
	o.Replays = []*Replay{{Run: r, Verdict: "deadlock", Got: []string{"deadlock", "pass", "deadlock"}, Again: "panic"}}
	w1 := run(Bug, "random", wire.OutcomeFinding, "deadlock", false)
	w1.Workers = 1
	w := run(Bug, "random", wire.OutcomeFinding, "deadlock", false)
	w.Workers, w.Result.Schedules = 2, 9
	o.Runs = append(o.Runs, w1, w)
	v := &Verdicts{}
	JudgeReplay(o, v)
	for _, want := range []string{"replay gives another verdict", "same seed, another verdict", "-workers changes the verdict"} {
		if !hasClass(v, OracleReplay, want) {
			t.Errorf("no %q among %v", want, classes(v))
		}
	}
}

// A verdict that depended on the machine's speed, as mcr's does when a
// check of its solver gave up at its time bound, is not compared again.
func TestReplayOracleDiscountsSolverTimeouts(t *testing.T) {
	for _, c := range []struct {
		unknown, againBound bool
		want                bool
	}{{false, false, true}, {true, false, false}, {false, true, false}} {
		r := run(Racy, "mcr", wire.OutcomeFinding, "data race", false)
		if c.unknown {
			r.Result.MCR = &wire.MCRStats{Unknown: 1}
		}
		o := observation(r)
		o.Replays = []*Replay{{Run: r, Verdict: "data race", Got: []string{"data race"}, Again: "pass", AgainBound: c.againBound}}
		v := &Verdicts{}
		JudgeReplay(o, v)
		if got := hasClass(v, OracleReplay, "same seed, another verdict"); got != c.want {
			t.Errorf("solver gave up %v, the run again bound %v: discrepancy %v, want %v", c.unknown, c.againBound, got, c.want)
		}
	}
}

func TestRobustnessOracle(t *testing.T) {
	crash := &Run{Form: Safe, Strategy: "dpor", Err: "test binary: exit status 2", Output: "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 7 [running]:\ninterleave.dev/rt/internal/strategy.(*DPOR).Next(...)\n\t/cache/runtime/x/rt/internal/strategy/dpor.go:412 +0x1d\n"}
	userPanic := run(Bug, "random", wire.OutcomeFinding, "panic", false)
	v := &Verdicts{}
	JudgeRobustness(observation(crash, userPanic), v)
	if len(v.Discrepancies) != 1 || v.Discrepancies[0].Class != "crash" {
		t.Fatalf("judged as %v", classes(v))
	}
	if d := v.Discrepancies[0].Detail; !strings.Contains(d, "index out of range") || !strings.Contains(d, "rt/internal/strategy/dpor.go:412") {
		t.Errorf("crash site %q", d)
	}
}

func TestParseRaces(t *testing.T) {
	out := `==================
WARNING: DATA RACE
Read at 0x00c0000a6750 by goroutine 16:
  runtime.mapIterStart()
      /usr/local/go/src/runtime/map.go:156 +0x0
  example.com/x/p.TestRacy.func2()
      /tmp/m/p/p_test.go:27 +0xd5

Previous write at 0x00c0000a6750 by goroutine 15:
  runtime.mapassign_fast64()
      /usr/local/go/src/internal/runtime/maps/runtime_fast64.go:196 +0x0
  example.com/x/p.TestRacy.func1()
      /tmp/m/p/p_test.go:22 +0xee

Goroutine 16 (running) created at:
  example.com/x/p.TestRacy()
      /tmp/m/p/p_test.go:25 +0x1e4
==================
`
	got := parseRaces(out+out, "/p/p_test.go")
	if len(got) != 1 || got[NewPair(22, 27)] != 2 {
		t.Errorf("parseRaces = %v, want 22/27 twice", got)
	}
}

func TestReportedRace(t *testing.T) {
	out := `--- FAIL: TestRacy (0.12s)
    p_test.go:177: 
        interleave: data race after 5 schedules (strategy pct, seed 1)
        read by goroutine 4 races with earlier write by goroutine 1
        location: variable at 0x576fe534698
        
        goroutine 4: read at p_test.go:228
            started at p_test.go:220
            example.com/difftest/p.TestRacy.func1.4(...)
            	/tmp/s10/p/p_test.go:228
        
        goroutine 1 (test): earlier write at p_test.go:238
        
        interleaving (last 40 of 93 events):
            g4     send channel#1               p_test.go:227
            g4     read variable#3              p_test.go:227
`
	if p := reportedRace(out, "p_test.go"); p == nil || *p != NewPair(228, 238) {
		t.Errorf("reportedRace = %v, want 228/238", p)
	}
}
