package explore

import (
	"fmt"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/regress"
	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// Bug signatures and regression mode, after RegressionMaple (Tsui, Wu,
// Chan, "Toward a methodology to expose partially fixed concurrency bugs
// in modified multithreaded programs"): every finding's schedule file
// carries the short sequence of events that triggered the bug (section
// 2.2), and the strategy "regression" steers a changed program toward a
// similar interleaving (section 3.4).

// signature returns the bug signature of finding f, found by the
// exploration cfg in its last iteration (res): the events the finding
// names (sched.Finding.Signature), with their sites and call stacks.
// Stacks of past events are not recorded while exploring; since a replay
// is deterministic, one more run of the schedule in this process, which
// knows the events' indexes, takes them (regress.Capture). That costs one
// iteration per finding, less than a process, and needs nothing from the
// confirmation replay, which some findings do not get. If that run does
// not follow the schedule, the signature keeps the sites without stacks.
func signature(cfg sched.Config, res *sched.Result, f *sched.Finding, opts Options, s *wire.Schedule, body func()) *wire.Signature {
	if f.Kind == sched.KindStuck || f.Kind == sched.KindLimit {
		// Not a bug of the interleaving, and running it again costs
		// the bound (StuckAfter, the budget) once more.
		return nil
	}
	refs := f.Signature()
	if len(refs) == 0 {
		return nil
	}
	want := map[int]event.Event{}
	pendingOf := map[int32]bool{}
	for _, r := range refs {
		if r.Index >= 0 {
			want[r.Index] = r.Ev
		} else {
			pendingOf[r.Ev.G] = true
		}
	}
	capture := regress.NewCapture(res.Choices, want, pendingOf)
	cfg.Strategy = capture
	cfg.Schedules = 1
	cfg.ExpectHash = res.Hash
	cfg.FirstIteration = s.Iteration
	again := sched.Explore(cfg, body)
	same := again.Hash == res.Hash && capture.Consumed()
	sig := &wire.Signature{}
	objs, gs := map[int32]int{}, map[int32]int{}
	label := func(m map[int32]int, id int32) int {
		if _, ok := m[id]; !ok {
			m[id] = len(m) + 1
		}
		return m[id]
	}
	for _, r := range refs {
		p := site.Pos(r.Ev.Site)
		e := wire.SigEvent{Op: r.Ev.Op.Key(), File: p.File, Line: p.Line, Column: p.Column, Goroutine: label(gs, r.Ev.G), Pending: r.Index < 0}
		if r.Ev.Obj != 0 {
			e.Object = label(objs, r.Ev.Obj)
		}
		pcs := capture.Stacks[r.Index]
		if r.Index < 0 {
			pcs = capture.PendingStacks[r.Ev.G]
		}
		if same && pcs != nil {
			c := strategy.Resolve(pcs)
			e.Function, e.FuncLine, e.Stack = c.Func, c.FuncLine, c.Stack
		}
		sig.Events = append(sig.Events, e)
	}
	return sig
}

// regressOptions prepares a regression run: the strategy's signature and
// the detector settings of the schedule file that holds it.
func regressOptions(opts *Options, sc *strategies.Setup) error {
	s := opts.Regress
	if s == nil {
		return fmt.Errorf("interleave: strategy regression needs a schedule file with a bug signature")
	}
	if s.Signature == nil {
		return fmt.Errorf("interleave: the schedule file of %s (format version %d) has no bug signature: only files written by interleave with format version 2 or later have one; find the bug again with interleave test on the buggy code", s.Test, s.Version)
	}
	for i, e := range s.Signature.Events {
		op, ok := event.ParseOp(e.Op)
		if !ok {
			return fmt.Errorf("interleave: corrupt schedule: signature event %d: unknown operation %q", i+1, e.Op)
		}
		sc.Signature = append(sc.Signature, regress.SigEvent{
			Op: op, Line: e.Line, Col: e.Column, Func: e.Function, FuncLine: e.FuncLine,
			Stack: e.Stack, Object: e.Object, Goroutine: e.Goroutine,
		})
	}
	sc.SitePos = func(s uint32) regress.Pos {
		p := site.Pos(s)
		return regress.Pos{Line: p.Line, Col: p.Column}
	}
	// Not opts.Reduce: the strategy pauses goroutines at the signature's
	// events, memory accesses among them, which must be scheduling points.
	opts.NoRace, opts.NoLeaks = !s.Race, !s.Leaks
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = s.MaxSteps
	}
	opts.Timers, opts.Stall = s.Timers, time.Duration(s.Stall)
	if opts.Timers == "" {
		opts.Timers = "eager" // the default of files written before the stall policy
	}
	return nil
}

// regressResult reports what the regression strategy did.
func regressResult(r *regress.Regression, s *wire.Schedule) *wire.RegressResult {
	last, matched, steered := r.Last()
	loose := r.Loosest()
	out := &wire.RegressResult{W: last.WString(), D: last.D, MaxW: loose.WString(), MaxD: loose.D, Matched: matched, Unsteered: !steered}
	if s != nil && s.Signature != nil {
		out.Events = len(s.Signature.Events)
		out.Original = s.Finding
	}
	return out
}
