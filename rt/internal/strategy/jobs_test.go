package strategy

import (
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"interleave.dev/rt/wire"
)

// toy is a program of g goroutines of steps operations each: at every
// point where more than one goroutine can go on, the strategy chooses;
// the goroutine that ran last is the point's current one, as the
// scheduler says.
type toy struct{ g, steps int }

// run runs one schedule of the toy under s and returns the order in
// which the goroutines ran; bad says which schedules find something.
func (p toy) run(s Strategy, bad func(string) bool) string {
	rem := make([]int, p.g+1)
	for i := 1; i <= p.g; i++ {
		rem[i] = p.steps
	}
	var seq []byte
	cur, index := int32(0), 0
	for {
		var gs []int32
		for i := 1; i <= p.g; i++ {
			if rem[i] > 0 {
				gs = append(gs, int32(i))
			}
		}
		if len(gs) == 0 {
			break
		}
		pick := gs[0]
		if len(gs) > 1 {
			pt := point(Thread, index, gs...)
			if rem[cur] > 0 {
				pt.Current = cur
			}
			index++
			pick = gs[s.Choose(pt)]
		}
		rem[pick]--
		cur = pick
		seq = append(seq, byte('0'+pick))
	}
	leaf := string(seq)
	s.End(Outcome{Finding: bad != nil && bad(leaf)})
	return leaf
}

// sequential runs s over the toy to its end, or to its first finding.
func (p toy) sequential(s Strategy, bad func(string) bool) []string {
	var out []string
	for s.Begin() {
		leaf := p.run(s, bad)
		out = append(out, leaf)
		if bad != nil && bad(leaf) || len(out) > 100000 {
			break
		}
	}
	return out
}

// scatter hands out the jobs of a split search in a random order, and
// splits a job at random, as processes that claim jobs as they come and
// give up the rest of theirs when another is idle would; it keeps what
// each job ran.
type scatter struct {
	rng     *rand.Rand
	pending []Job
	cur     *ran
	done    []*ran
	split   float64
}

type ran struct {
	job    Job
	leaves []string
	res    JobResult
}

func (s *scatter) Next() (Job, bool) {
	if len(s.pending) == 0 {
		return Job{}, false
	}
	i := s.rng.Intn(len(s.pending))
	j := s.pending[i]
	s.pending = append(s.pending[:i], s.pending[i+1:]...)
	s.cur = &ran{job: j}
	return j, true
}

func (s *scatter) Between(int) Action {
	if s.rng.Float64() < s.split {
		return Split
	}
	return Go
}

func (s *scatter) Done(r JobResult) {
	s.cur.res = r
	s.done = append(s.done, s.cur)
	s.pending = append(s.pending, r.Children...)
}

// inOrder lists the leaves the jobs ran in the order of their keys, up
// to the first finding.
func (s *scatter) inOrder(t *testing.T) []string {
	sort.Slice(s.done, func(a, b int) bool { return wire.CompareKeys(s.done[a].job.Key, s.done[b].job.Key) < 0 })
	var out []string
	for i, r := range s.done {
		if i > 0 && wire.CompareKeys(s.done[i-1].job.Key, r.job.Key) == 0 {
			t.Fatalf("two jobs have the key %v", r.job.Key)
		}
		if r.res.Schedules != len(r.leaves) {
			t.Fatalf("job %v reports %d schedules, ran %d", r.job.Key, r.res.Schedules, len(r.leaves))
		}
		out = append(out, r.leaves...)
		if r.res.Finding {
			break
		}
	}
	return out
}

// runSplit explores the toy with the strategy made by mk over scatter,
// from the root job.
func (p toy) runSplit(seed int64, split float64, mk func(Jobs) Strategy, bad func(string) bool) *scatter {
	sc := &scatter{rng: rand.New(rand.NewSource(seed)), pending: []Job{RootJob()}, split: split}
	s := mk(sc)
	for s.Begin() {
		leaf := p.run(s, bad)
		sc.cur.leaves = append(sc.cur.leaves, leaf)
		if bad != nil && bad(leaf) {
			// The process stops here; the others run the rest.
			s = mk(sc)
		}
	}
	return sc
}

// The leaves of a dfs or pcb search split into jobs, in any order and cut
// anywhere, listed by the jobs' keys, are the sequential search's in its
// order: so the schedule a finding has in the sequential search is known
// from the jobs', whatever process ran them.
func TestSplitJobsKeepTheSequentialOrder(t *testing.T) {
	prog := toy{g: 3, steps: 2}
	for _, c := range []struct {
		name string
		seq  func() Strategy
		mk   func(Jobs) Strategy
	}{
		{"dfs", func() Strategy { return NewDFS(0) }, func(j Jobs) Strategy { return NewDFSJobs(j, 0) }},
		{"pcb K=0", func() Strategy { return NewPCB(0, 0) }, func(j Jobs) Strategy { return NewPCBJobs(j, 0, 0) }},
		{"pcb K=1", func() Strategy { return NewPCB(1, 0) }, func(j Jobs) Strategy { return NewPCBJobs(j, 1, 0) }},
		{"pcb K=3", func() Strategy { return NewPCB(3, 0) }, func(j Jobs) Strategy { return NewPCBJobs(j, 3, 0) }},
	} {
		want := prog.sequential(c.seq(), nil)
		for seed := int64(1); seed <= 20; seed++ {
			split := []float64{0, 0.05, 0.5, 1}[seed%4]
			sc := prog.runSplit(seed, split, c.mk, nil)
			if got := sc.inOrder(t); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, seed %d, split %v: %d leaves in key order\n%v\nsequential %d\n%v", c.name, seed, split, len(got), got, len(want), want)
			}
		}
		t.Logf("%s: %d leaves", c.name, len(want))
	}
}

// A finding ends its job; listed by keys, the first job with a finding
// holds the sequential search's finding, at the same number.
func TestSplitJobsFindTheFirstFinding(t *testing.T) {
	prog := toy{g: 3, steps: 2}
	bad := func(leaf string) bool { return leaf[2] == '3' && leaf[3] == '1' }
	for _, c := range []struct {
		name string
		seq  func() Strategy
		mk   func(Jobs) Strategy
	}{
		{"dfs", func() Strategy { return NewDFS(0) }, func(j Jobs) Strategy { return NewDFSJobs(j, 0) }},
		{"pcb", func() Strategy { return NewPCB(2, 0) }, func(j Jobs) Strategy { return NewPCBJobs(j, 2, 0) }},
	} {
		want := prog.sequential(c.seq(), bad)
		if !bad(want[len(want)-1]) {
			t.Fatalf("%s: the sequential search finds nothing", c.name)
		}
		for seed := int64(1); seed <= 20; seed++ {
			sc := prog.runSplit(seed, 0.3, c.mk, bad)
			if got := sc.inOrder(t); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, seed %d: up to the first finding %v, sequential %v", c.name, seed, got, want)
			}
		}
	}
}

// Parts of pcb's items have the item's bound, and meet the items of the
// next bound the sequential search meets there; a preemption past K
// makes the job incomplete, as it makes pcb.
func TestSplitPCBFlags(t *testing.T) {
	prog := toy{g: 3, steps: 2}
	sc := prog.runSplit(3, 0.2, func(j Jobs) Strategy { return NewPCBJobs(j, 1, 0) }, nil)
	levels, incomplete := map[int]int{}, false
	for _, r := range sc.done {
		levels[r.job.Level] += len(r.leaves)
		if r.job.Key[0] != r.job.Level {
			t.Errorf("job %v of level %d", r.job.Key, r.job.Level)
		}
		incomplete = incomplete || r.res.Incomplete
	}
	seq := NewPCB(1, 0)
	prog.sequential(seq, nil)
	if !incomplete || seq.Complete() {
		t.Errorf("a bound of 1 leaves preemptions out: split incomplete %v, sequential complete %v", incomplete, seq.Complete())
	}
	if levels[0] == 0 || levels[1] == 0 || len(levels) != 2 {
		t.Errorf("leaves per level %v", levels)
	}
}
