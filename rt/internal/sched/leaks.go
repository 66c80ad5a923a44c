package sched

import (
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// A goroutine leak is a bug of the concurrency when it depends on the
// interleaving: a goroutine left blocked on some schedules and not on
// others. One left blocked on every schedule (a cache's worker the test
// never stops, a helper waiting for a job that correctly never comes)
// does not depend on the interleaving: it is what goleak is for, and with
// Config.LeakNotes it is not a finding but a note (Result.NeverStops).
//
// Schedule 1 is the reference: a schedule whose leaked goroutines (each
// by where it was started and where it waits, LeakKey) differ from schedule
// 1's shows that they depend on the interleaving. When it leaks a
// goroutine schedule 1 did not, it is the finding; when it lacks one that
// schedule 1 leaked, though it started it too, schedule 1 is the finding,
// numbered as the schedule that showed it (one it never started was
// started once per process: state, not the interleaving). Either way the verdict on a schedule needs only that
// schedule and schedule 1, so that processes sharing a test's schedules
// out reach the one a single process would (each learns schedule 1 first,
// Config.LeakReference).

// LeakKey identifies a goroutine left behind by a schedule: the site that
// started it, the operation and site where it waits (for one still
// running, OpYield and 0).
type LeakKey struct {
	Spawn, Site uint32
	Op          event.Op
	// Timeout says it waits on a channel a select gave up at a timeout
	// (the abandoned sender of a select on time.After or a deadline): the
	// leak depends on which came first, the work or the timeout, which
	// virtual time, exact where a machine is not, may decide the same way
	// in every schedule. Such a leak is a finding.
	Timeout bool
}

// timedOut reports whether one of ks is a goroutine left at a timeout.
func timedOut(ks []LeakKey) bool {
	for _, k := range ks {
		if k.Timeout {
			return true
		}
	}
	return false
}

// LeakRef is what schedule 1 left behind, and its finding when it left
// something: the reference of Config.LeakNotes.
type LeakRef struct {
	Keys    []LeakKey // sorted; nil when it left nothing
	Finding *Finding
	Choices []int
	Hash    uint64
	Steps   int
	Logs    []string
}

// leakKeys returns the keys of the goroutines of the leak finding f,
// sorted and without repeats.
func leakKeys(f *Finding) []LeakKey {
	if f == nil || f.Kind != KindLeak {
		return nil
	}
	var ks []LeakKey
	for _, k := range f.leaked {
		i := sort.Search(len(ks), func(i int) bool { return !keyLess(ks[i], k) })
		if i < len(ks) && ks[i] == k {
			continue
		}
		ks = append(ks, LeakKey{})
		copy(ks[i+1:], ks[i:])
		ks[i] = k
	}
	return ks
}

func keyLess(a, b LeakKey) bool {
	if a.Spawn != b.Spawn {
		return a.Spawn < b.Spawn
	}
	if a.Site != b.Site {
		return a.Site < b.Site
	}
	return a.Op < b.Op
}

// newKeys reports whether ks holds a key ref does not.
func newKeys(ks, ref []LeakKey) bool {
	for _, k := range ks {
		i := sort.Search(len(ref), func(i int) bool { return !keyLess(ref[i], k) })
		if i == len(ref) || ref[i] != k {
			return true
		}
	}
	return false
}

func sameKeys(a, b []LeakKey) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// startedOf returns the keys of ref whose goroutines it started too (at
// the same site). A goroutine that schedule 1 left and a later schedule
// never started (a package's worker started once per process, behind a
// flag schedule 1 set) tells nothing of the interleaving: only one the
// later schedule started, and that ended or waits elsewhere, does.
func (it *Iteration) startedOf(ref []LeakKey) []LeakKey {
	var ks []LeakKey
	for _, k := range ref {
		for _, g := range it.gs {
			if g.spawnSite == k.Spawn {
				ks = append(ks, k)
				break
			}
		}
	}
	return ks
}

// refOf returns the reference that schedule it gives.
func refOf(it *Iteration) *LeakRef {
	ref := &LeakRef{Keys: leakKeys(it.finding)}
	if ref.Keys != nil {
		ref.Finding = it.finding
		ref.Choices = append([]int(nil), it.choices...)
		ref.Hash, ref.Steps, ref.Logs = it.eventHash(), it.steps, it.logs
	}
	return ref
}

// LeakReference runs schedule 1 of an exploration under cfg, as its first
// schedule would run, and returns what it left behind: the reference for
// processes that explore a share of the schedules without running
// schedule 1 (Config.LeakReference). Any other finding of that run is
// left for the exploration to find.
func LeakReference(cfg Config, body func()) *LeakRef {
	exploring.Lock()
	defer exploring.Unlock()
	cfg.LeakNotes = false
	x := newExplorer(cfg)
	defer x.stopHubs()
	if !x.strat.Begin() {
		return &LeakRef{}
	}
	it := x.run(body, 1, time.Time{})
	x.strat.End(strategy.Outcome{Finding: it.finding != nil, Points: it.points, Steps: it.steps})
	return refOf(it)
}

// String writes k as ParseLeakKey reads it.
func (k LeakKey) String() string { return fmt.Sprintf("%d/%d/%d/%t", k.Spawn, k.Site, k.Op, k.Timeout) }

// ParseLeakKey reads a LeakKey that String wrote.
func ParseLeakKey(s string) (LeakKey, error) {
	var k LeakKey
	var op int
	if _, err := fmt.Sscanf(s, "%d/%d/%d/%t", &k.Spawn, &k.Site, &op, &k.Timeout); err != nil {
		return k, fmt.Errorf("bad leak key %q: %w", s, err)
	}
	k.Op = event.Op(op)
	return k, nil
}

// leaksEverywhere is set when the program checks for leaks in TestMain
// (goleak.VerifyTestMain): every leak of every test is a finding.
var leaksEverywhere atomic.Bool

// CheckLeaksEverywhere makes every leak of every exploration a finding,
// also one every schedule shows.
func CheckLeaksEverywhere() { leaksEverywhere.Store(true) }

// CheckLeaks makes every leak of the iteration's exploration a finding,
// also one every schedule shows: the test checks for leaks itself
// (goleak.VerifyNone).
func (it *Iteration) CheckLeaks() { it.x.leaksChecked = true }
