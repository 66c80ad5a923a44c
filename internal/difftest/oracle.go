package difftest

import (
	"fmt"
	"sort"
	"strings"

	"interleave.dev/rt/wire"
)

// Oracle names.
const (
	OracleRaces      = "races"
	OracleOutcomes   = "outcomes"
	OracleSemantics  = "semantics"
	OracleReplay     = "replay"
	OracleRobustness = "robustness"
	// OracleHarness marks a discrepancy that is the generator's fault
	// (Go itself disagrees with the construction): not a tool defect.
	OracleHarness = "harness"
)

// Oracles lists the oracles in report order.
var Oracles = []string{OracleRaces, OracleOutcomes, OracleSemantics, OracleReplay, OracleRobustness, OracleHarness}

// Discrepancy is one disagreement between interleave and its judges.
type Discrepancy struct {
	Oracle   string `json:"oracle"`
	Class    string `json:"class"`
	Form     Form   `json:"form"`
	Strategy string `json:"strategy,omitempty"`
	// Kinds are the statement kinds involved (the racing statements).
	Kinds  []string `json:"kinds,omitempty"`
	Detail string   `json:"detail"`
}

// Key identifies the discrepancy for shrinking: a smaller program shows
// the same discrepancy when it has one with the same key.
func (d Discrepancy) Key() string {
	return d.Oracle + "|" + d.Class + "|" + string(d.Form) + "|" + d.Strategy
}

// String describes the discrepancy on one line.
func (d Discrepancy) String() string {
	s := fmt.Sprintf("%s: %s (%s", d.Oracle, d.Class, d.Form)
	if d.Strategy != "" {
		s += ", " + d.Strategy
	}
	s += ")"
	if len(d.Kinds) > 0 {
		s += " [" + strings.Join(d.Kinds, ", ") + "]"
	}
	if d.Detail != "" {
		s += ": " + d.Detail
	}
	return s
}

// Check is one application of an oracle, for the counts of the report.
type Check struct {
	Oracle   string
	Strategy string
}

// Detection is how many schedules a randomized strategy took to find a
// bug dfs found (Found false: it did not within its budget).
type Detection struct {
	Strategy  string
	Form      Form
	Found     bool
	Schedules int
}

// Verdicts is the result of the oracles on one observation.
type Verdicts struct {
	Discrepancies []Discrepancy
	Checks        []Check
	Detections    []Detection
}

func (v *Verdicts) add(d Discrepancy) { v.Discrepancies = append(v.Discrepancies, d) }
func (v *Verdicts) check(oracle, strategy string) {
	v.Checks = append(v.Checks, Check{oracle, strategy})
}

// Judge applies every oracle to o.
func Judge(o *Observation) *Verdicts {
	v := &Verdicts{}
	if o.BuildErr != "" {
		v.add(Discrepancy{Oracle: OracleHarness, Class: "program does not build", Detail: buildError(o.BuildErr)})
		return v
	}
	JudgeRobustness(o, v)
	JudgeRaces(o, v)
	JudgeOutcomes(o, v)
	JudgeSemantics(o, v)
	JudgeReplay(o, v)
	return v
}

// kindsAt returns the statement kinds on the lines of pair p.
func kindsAt(o *Observation, p Pair) []string {
	var ks []string
	for _, l := range []int{p.A, p.B} {
		if at, ok := o.Rendered.Lines[l]; ok {
			ks = append(ks, stmtAt(o.Program, at).Kind)
		} else {
			ks = append(ks, fmt.Sprintf("line %d", l))
		}
	}
	return ks
}

func stmtAt(p *Program, at Line) Stmt {
	if at.G < 0 {
		return p.Pre[at.S]
	}
	return p.Gs[at.G].Stmts[at.S]
}

// plantedKind is the kind of the planted statement.
func plantedKind(o *Observation) string {
	if at, ok := o.Rendered.Lines[o.Rendered.Planted]; ok {
		return stmtAt(o.Program, at).Kind
	}
	return ""
}

// JudgeRaces is the race oracle: on the Racy form every run of a
// strategy detecting races reports a race on a pair go test -race
// reported, or one with the planted line (under a randomized strategy
// within its budget; a systematic one may run out of budget but must not
// say it covered every interleaving); on the Safe form no run reports a
// race. Go reporting a race on the Safe form, or on the Racy form away
// from the planted line, is the generator's fault.
func JudgeRaces(o *Observation, v *Verdicts) {
	if n := o.Native[Safe]; n != nil {
		for p := range n.Races {
			v.add(Discrepancy{Oracle: OracleHarness, Class: "go reports a race on the Safe form", Form: Safe, Kinds: kindsAt(o, p), Detail: "lines " + p.String()})
		}
	}
	for _, r := range o.Runs {
		if r.Form != Safe || r.Result == nil || r.Workers != 0 || r.Shard != "" {
			continue
		}
		v.check(OracleRaces, r.Strategy)
		if k, ok := r.Finding(); ok && k == "data race" {
			d := Discrepancy{Oracle: OracleRaces, Class: "false race", Form: Safe, Strategy: r.Strategy, Detail: firstLine(r.Result.Message)}
			if r.Race != nil {
				d.Kinds = kindsAt(o, *r.Race)
				d.Detail = "lines " + r.Race.String() + ": " + d.Detail
			}
			v.add(d)
		}
	}
	n := o.Native[Racy]
	if n == nil {
		return
	}
	planted := o.Rendered.Planted
	// A race in a helper (a method the planted statement calls) is on
	// the planted statement's behalf.
	hasPlanted := func(p Pair) bool { return p.Has(planted) || p.A <= o.Rendered.HeaderEnd }
	for p := range n.Races {
		if !hasPlanted(p) {
			v.add(Discrepancy{Oracle: OracleHarness, Class: "go reports a race away from the planted line", Form: Racy, Kinds: kindsAt(o, p), Detail: "lines " + p.String()})
		}
	}
	goSaw := len(n.Races) > 0
	for _, r := range o.Runs {
		if r.Form != Racy || r.Result == nil || r.Workers != 0 || r.Shard != "" {
			continue
		}
		v.check(OracleRaces, r.Strategy)
		k, found := r.Finding()
		if found && k == "data race" {
			if r.Race != nil && !hasPlanted(*r.Race) && n.Races[*r.Race] == 0 {
				v.add(Discrepancy{Oracle: OracleRaces, Class: "false race", Form: Racy, Strategy: r.Strategy, Kinds: kindsAt(o, *r.Race), Detail: "lines " + r.Race.String() + ", the planted race is on line " + fmt.Sprint(planted)})
			}
			continue
		}
		if !goSaw {
			continue
		}
		var gp []string
		for _, p := range keys(n.Races, func(a, b Pair) bool { return a.A < b.A || a.A == b.A && a.B < b.B }) {
			gp = append(gp, p.String()+" "+strings.Join(kindsAt(o, p), "/"))
		}
		d := Discrepancy{Oracle: OracleRaces, Form: Racy, Strategy: r.Strategy, Kinds: []string{plantedKind(o)}}
		what := "pass"
		if found {
			what = k
		}
		switch {
		case r.Verified():
			d.Class = "verified but go reports a race"
		case Systematic(r.Strategy) && !found && !r.NoRace:
			continue // it ran out of budget and claims nothing
		default:
			d.Class = "missed race"
		}
		if r.NoRace {
			d.Class += " (race detection off)"
		}
		if e := o.Eager[Racy]; e != nil {
			if k, ok := e.Finding(); ok && k == "data race" {
				// Found once timers may fire early: the race needs a
				// goroutine stalled, which the default policy never
				// assumes at a lone wait on a timer.
				d.Class += " that needs a stall"
			}
		}
		d.Detail = fmt.Sprintf("go test -race: %s; interleave: %s after %d schedules", strings.Join(gp, ", "), what, r.Result.Schedules)
		v.add(d)
	}
}

// JudgeOutcomes is the outcome oracle, dfs as ground truth. Where dfs
// covered every interleaving of a form: the outcomes seen natively are
// among the outcomes dfs reached (or, for one that needs a goroutine
// stalled past a timeout, as a loaded machine stalls it, among those random
// schedules reach under -timers=eager: Observation.Eager); dpor, mcr and mpc reach exactly them
// when they say they covered every interleaving, and no more otherwise;
// no strategy reaches one dfs did not; a Safe form has no finding. Where
// dfs found a bug: no strategy says it covered every interleaving, and
// the randomized ones find a bug within their budget.
func JudgeOutcomes(o *Observation, v *Verdicts) {
	for _, f := range o.Program.Forms() {
		if f == Racy {
			continue // a racy program's values are not the subject
		}
		dfs := findRun(o, f, "dfs")
		if dfs == nil || dfs.Result == nil {
			continue
		}
		n := o.Native[f]
		dk, dfsFound := dfs.Finding()
		switch {
		case dfs.Verified():
			truth := dfs.Outcomes
			if n != nil {
				v.check(OracleOutcomes, "native")
				eager := o.Eager[f]
				for val := range n.Outcomes {
					if truth[val] == 0 {
						if eager != nil && eager.Outcomes[val] > 0 {
							continue // it needs a goroutine stalled past a timeout
						}
						v.add(Discrepancy{Oracle: OracleOutcomes, Class: "native outcome dfs never reached", Form: f, Strategy: "dfs", Detail: val})
					}
				}
				for kind, c := range n.Failures {
					v.add(Discrepancy{Oracle: OracleOutcomes, Class: "verified but native runs fail", Form: f, Strategy: "dfs", Detail: fmt.Sprintf("%d native runs: %s", c, kind)})
				}
			}
			for _, r := range o.Runs {
				if r.Form != f || r.Result == nil || r.Strategy == "dfs" || r.NoRace {
					continue
				}
				v.check(OracleOutcomes, r.Strategy)
				if k, ok := r.Finding(); ok {
					v.add(Discrepancy{Oracle: OracleOutcomes, Class: "finding where dfs covered every interleaving without one", Form: f, Strategy: r.Strategy, Detail: k + ": " + firstLine(r.Result.Message)})
					continue
				}
				var extra, missing []string
				for val := range r.Outcomes {
					if truth[val] == 0 {
						extra = append(extra, val)
					}
				}
				exact := r.Verified() && (r.Strategy == "dpor" || r.Strategy == "mcr" || r.Strategy == "mpc")
				if exact {
					for val := range truth {
						if r.Outcomes[val] == 0 {
							missing = append(missing, val)
						}
					}
				}
				sort.Strings(extra)
				sort.Strings(missing)
				if len(extra) > 0 {
					v.add(Discrepancy{Oracle: OracleOutcomes, Class: "outcome dfs never reached", Form: f, Strategy: r.Strategy, Detail: fmt.Sprintf("%d outcomes, first: %s", len(extra), extra[0])})
				}
				if len(missing) > 0 {
					v.add(Discrepancy{Oracle: OracleOutcomes, Class: "verified but misses outcomes dfs reached", Form: f, Strategy: r.Strategy, Detail: fmt.Sprintf("%d of %d outcomes, first: %s", len(missing), len(truth), missing[0])})
				}
			}
		case dfsFound:
			if f == Safe {
				v.add(Discrepancy{Oracle: OracleOutcomes, Class: "finding on a Safe form", Form: f, Strategy: "dfs", Detail: dk + ": " + firstLine(dfs.Result.Message)})
			}
			for _, r := range o.Runs {
				if r.Form != f || r.Result == nil || r.Strategy == "dfs" || r.Workers != 0 || r.Shard != "" || r.NoRace {
					continue
				}
				v.check(OracleOutcomes, r.Strategy)
				_, found := r.Finding()
				if !Systematic(r.Strategy) && r.Strategy != "active" {
					v.Detections = append(v.Detections, Detection{Strategy: r.Strategy, Form: f, Found: found, Schedules: r.Result.Schedules})
				}
				switch {
				case found:
				case r.Verified():
					class := "verified but dfs finds a bug"
					if r.Strategy == "pcb" {
						class = "pcb verified within its bound but dfs finds a bug"
					}
					v.add(Discrepancy{Oracle: OracleOutcomes, Class: class, Form: f, Strategy: r.Strategy, Detail: fmt.Sprintf("dfs: %s after %d schedules: %s", dk, dfs.Result.Schedules, firstLine(dfs.Result.Message))})
				case Systematic(r.Strategy):
					// Ran out of budget: no claim made.
				default:
					v.add(Discrepancy{Oracle: OracleOutcomes, Class: "missed bug dfs finds", Form: f, Strategy: r.Strategy, Detail: fmt.Sprintf("dfs: %s after %d schedules; %s: pass after %d", dk, dfs.Result.Schedules, r.Strategy, r.Result.Schedules)})
				}
			}
		}
	}
}

// findRun returns the plain run of strategy s on form f.
func findRun(o *Observation, f Form, s string) *Run {
	for _, r := range o.Runs {
		if r.Form == f && r.Strategy == s && r.Workers == 0 && r.Shard == "" && !r.NoRace {
			return r
		}
	}
	return nil
}

// JudgeSemantics is the semantics oracle: the sequential part of each
// form computes one value natively, and the same under every strategy.
func JudgeSemantics(o *Observation, v *Verdicts) {
	if len(o.Program.Pre) == 0 {
		return
	}
	for _, f := range o.Program.Forms() {
		n := o.Native[f]
		if n == nil || len(n.Seq) == 0 {
			continue
		}
		if len(n.Seq) > 1 {
			v.add(Discrepancy{Oracle: OracleHarness, Class: "sequential value varies natively", Form: f, Detail: strings.Join(keys(n.Seq, func(a, b string) bool { return a < b }), " | ")})
			continue
		}
		var want string
		for val := range n.Seq {
			want = val
		}
		seen := map[string]bool{}
		for _, r := range o.Runs {
			if r.Form != f || len(r.Seq) == 0 {
				continue
			}
			v.check(OracleSemantics, r.Strategy)
			for val := range r.Seq {
				if val != want && !seen[r.Strategy] {
					seen[r.Strategy] = true
					v.add(Discrepancy{Oracle: OracleSemantics, Class: "sequential value differs from native", Form: f, Strategy: r.Strategy, Kinds: preKinds(o.Program), Detail: fmt.Sprintf("native %q, interleave %q", want, val)})
					break
				}
			}
		}
	}
}

func preKinds(p *Program) []string {
	var ks []string
	for _, s := range p.Pre {
		ks = append(ks, s.Kind)
	}
	return ks
}

// JudgeReplay is the replay oracle: every finding replays with its
// verdict every time, the same strategy and seed give the same verdict
// again, and -workers 2 gives the verdict of one process.
func JudgeReplay(o *Observation, v *Verdicts) {
	for _, rp := range o.Replays {
		v.check(OracleReplay, rp.Run.Strategy)
		bad := 0
		var other string
		for _, g := range rp.Got {
			if g != rp.Verdict {
				bad++
				other = g
			}
		}
		if bad > 0 {
			v.add(Discrepancy{Oracle: OracleReplay, Class: "replay gives another verdict", Form: rp.Run.Form, Strategy: rp.Run.Strategy, Detail: fmt.Sprintf("%s replayed as %s %d times of %d", rp.Verdict, other, bad, len(rp.Got))})
		}
		if rp.Again != rp.Verdict && !rp.Run.budgetBound(o.Budget) && !rp.AgainBound {
			v.add(Discrepancy{Oracle: OracleReplay, Class: "same seed, another verdict", Form: rp.Run.Form, Strategy: rp.Run.Strategy, Detail: fmt.Sprintf("%s, then %s", rp.Verdict, rp.Again)})
		}
	}
	for _, r := range o.Runs {
		if r.Workers < 2 || r.Result == nil {
			continue
		}
		var one *Run
		for _, x := range o.Runs {
			if x.Form == r.Form && x.Strategy == r.Strategy && x.Workers == 1 && x.Shard == "" && !x.NoRace {
				one = x
			}
		}
		if one == nil || one.Result == nil || one.budgetBound(o.Budget) || r.budgetBound(o.Budget) {
			continue
		}
		v.check(OracleReplay, r.Strategy)
		if verdict(r) != verdict(one) || r.Result.Schedules != one.Result.Schedules {
			v.add(Discrepancy{Oracle: OracleReplay, Class: "-workers changes the verdict", Form: r.Form, Strategy: r.Strategy, Detail: fmt.Sprintf("one process: %s after %d schedules; -workers %d: %s after %d", verdict(one), one.Result.Schedules, r.Workers, verdict(r), r.Result.Schedules)})
		}
	}
}

// JudgeRobustness is the robustness oracle: every run ends with a
// result record that is not an error, and no output shows a panic inside
// the runtime.
func JudgeRobustness(o *Observation, v *Verdicts) {
	for _, r := range o.Runs {
		v.check(OracleRobustness, r.Strategy)
		d := Discrepancy{Oracle: OracleRobustness, Form: r.Form, Strategy: r.Strategy}
		if r.Workers != 0 {
			d.Strategy += fmt.Sprintf(" -workers %d", r.Workers)
		}
		if r.Shard != "" {
			d.Strategy += " -shard " + r.Shard
		}
		switch {
		case r.Result == nil && strings.Contains(r.Err, "killed after"):
			d.Class, d.Detail = "hang", r.Err
		case r.Result == nil:
			d.Class, d.Detail = "crash", crashSite(r.Output, r.Err)
		case r.Result.Outcome == wire.OutcomeError || r.Result.Outcome == wire.OutcomeDiverged || r.Result.Outcome == wire.OutcomeUnrepeatable:
			d.Class, d.Detail = "outcome "+r.Result.Outcome, firstLine(r.Result.Message)
		case r.Output != "" && runtimePanic(r.Output):
			d.Class, d.Detail = "panic in the runtime", crashSite(r.Output, "")
		default:
			continue
		}
		v.add(d)
	}
}

// runtimePanic reports whether output shows a panic with a frame inside
// interleave's runtime.
func runtimePanic(out string) bool {
	i := strings.Index(out, "panic: ")
	return i >= 0 && strings.Contains(out[i:], "interleave.dev/rt")
}

// crashSite returns the panic line and the first frame inside interleave
// of a crash's output.
func crashSite(out, err string) string {
	var panicLine, frame string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if panicLine == "" && (strings.HasPrefix(t, "panic: ") || strings.HasPrefix(t, "fatal error: ")) {
			panicLine = t
		}
		if panicLine != "" && frame == "" && strings.Contains(t, "interleave.dev/") && i+1 < len(lines) {
			frame = strings.TrimSpace(lines[i+1])
			if j := strings.Index(frame, " +0x"); j >= 0 {
				frame = frame[:j]
			}
			if j := strings.Index(frame, "interleave.dev/"); j >= 0 {
				frame = frame[j:]
			} else if j := strings.LastIndex(frame, "/rt/"); j >= 0 {
				frame = frame[j+1:]
			}
		}
	}
	s := panicLine
	if frame != "" {
		s += " at " + frame
	}
	if s == "" {
		s = firstLine(err)
	}
	return s
}

// buildError is the first line of a failed build's error and the first
// compiler message in it (a "file.go:line:col: ..." line), which the
// first line alone leaves out.
func buildError(s string) string {
	first := firstLine(s)
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); strings.Contains(l, ".go:") {
			return first + " " + l
		}
	}
	return first
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
