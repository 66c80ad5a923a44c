package dpor

import (
	"sort"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Splitting a dpor search between processes. Unlike a dfs tree, dpor's
// tree grows as it is explored: a race found in one execution adds
// options to the choice points above it, and which options an
// exploration runs depends on what the explorations before it found
// (the options they added, the sleep sets they leave). A process that
// explored part of the tree while another explored another part would
// see what the other found at a time that depends on the processes'
// speed, and so would the executions it runs: their number, and the
// finding, would depend on the number of processes.
//
// So the search runs in rounds, whose jobs are fixed before the round
// starts and explored each on its own; what they find is merged, in the
// order of the jobs, at the end of the round, and makes the jobs of the
// next round. What a job runs depends only on the job; the merges only
// on the results, in a fixed order: the search does not depend on which
// process runs which job, nor on how many there are.
//
//   - The skeleton is the top of the tree: the choice points of the
//     first Floor levels, kept by the search (Tree). The rest is
//     explored inside jobs.
//   - A job explores one option of one skeleton node: its execution
//     replays the path to the node, takes the option (following its
//     wakeup sequence), and runs on; the choice points it meets below
//     the skeleton are backtracked as dpor does, within the job. The
//     skeleton nodes it creates on the way down are the search's after
//     the round, with the options the job's races added to them.
//   - A race with a choice point at or above the job's root (a node
//     other jobs share) is not reversed by the job: it is returned, and
//     the merge reverses it against the node as the merges before left
//     it. With source sets that is the sequential search's decision
//     (an initial is in the backtrack set, or sleeps, or is added),
//     whatever the order: the split runs the sequential search's
//     executions. With wakeup trees, dpor inserts the sequence below the
//     options it has not explored yet; a round may have explored some of
//     them already, and the merge then goes on below them, into the
//     nodes their exploration made, as dpor would have gone on in their
//     subtrees (descend). Where those nodes are not in the skeleton
//     (below the floor, past a select), the option is explored again,
//     following the rest of the sequence (a supplement): sound, and
//     redundant with what the option's first exploration ran there.
//   - Each skeleton node starts at most one of its options per round,
//     the first of those to explore. That option's first transition is
//     then known (the job reports it), so that the node's next option,
//     in a later round, has it asleep, as dpor's sleep sets have the
//     options explored before (enter: those started before, by rank).
//
// The skeleton keeps the nodes an insertion may still go below (prune);
// its floor is deep enough that the executions of the textbook programs
// of docs/systematic.md are all skeleton, where a job is one execution
// and the split runs what the sequential search runs within a few
// percent (TestSplitDPOR); a deeper execution is explored below the
// floor by its job.

// Floor is the depth (in choice points) of the skeleton of a split
// dpor search.
const Floor = 48

// A Job is an option of a skeleton node of a split dpor search, and
// the wakeup subtree that option follows.
type Job struct {
	Round, Index int // the round, and the job's place in it
	Floor        int32
	node         *cnode // the skeleton's node (nil for the first job)
	opt          int    // the option at node
	sub          *wnode
}

// chain returns the nodes from the root to the job's node, and the
// options the path takes at each (the job's at its node).
func (j *Job) chain() ([]*cnode, []int) {
	var xs []*cnode
	var chosen []int
	for x, at := j.node, j.opt; x != nil; x, at = x.parent, x.at {
		xs, chosen = append(xs, x), append(chosen, at)
	}
	for i, k := 0, len(xs)-1; i < k; i, k = i+1, k-1 {
		xs[i], xs[k] = xs[k], xs[i]
		chosen[i], chosen[k] = chosen[k], chosen[i]
	}
	return xs, chosen
}

// Result is what exploring a Job gave: its executions, whether
// the last found something, the skeleton nodes it created, the first
// transition of its option, and the races it returned.
type Result struct {
	Job        *Job
	Executions int
	Finding    bool
	Ended      bool // it ran to its end (else stopped, or found)
	Incomplete bool // an execution was cut by a bound, or did not follow its path
	// SleepBlocked and Diverged count the job's executions cut short by
	// sleep sets and that could not follow their wakeup sequence.
	SleepBlocked, Diverged int
	created                []dnode
	fp                     []event.Event
	races                  []dporRace
	// leaf: the job's first execution met no choice point past its
	// skeleton nodes (it ended, or every option there slept).
	leaf bool
}

// dporRace is a race a job returned: with the choice point Node of its
// path, the sequence W that reverses it (wakeup trees), or the initials
// Init of that sequence and the racing goroutine G (source sets).
type dporRace struct {
	Node int32
	W    *wseq
	Init []int32
	G    int32
}

// Jobs hands out the jobs of a dpor search split into rounds and
// takes their results. Next may wait for a job; false: none is left for
// this process.
type Jobs interface {
	Next() (*Job, bool)
	// Between is called before each execution of the current job but
	// the first, with the executions it ran: Go on, or Stop it.
	Between(ran int) strategy.Action
	Done(r *Result)
}

// NewJobs returns dpor (with wakeup trees if optimal, source sets
// otherwise; bounded to bound preemptions if not negative) exploring the
// jobs jobs hands out.
func NewJobs(jobs Jobs, optimal bool, bound, maxDepth int) *DPOR {
	s := NewSource(maxDepth)
	s.optimal, s.jobs, s.bound = optimal, jobs, bound
	return s
}

func initList(init map[int32]bool) []int32 {
	out := make([]int32, 0, len(init))
	for g := range init {
		out = append(out, g)
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// export keeps a race for the search to reverse after the round.
func (s *DPOR) export(r dporRace) { s.exports = append(s.exports, r) }

// firstRace reports whether the job has not exported w to node d yet:
// inserting a sequence twice changes nothing (the second insertion goes
// down the branch the first made), and the executions of a job find the
// same race again and again. Two sequences of the same steps are ordered
// alike: what orders two steps of w happens before the race (on the
// job's path, the same in its executions) or in w.
func (s *DPOR) firstRace(d int32, w *wseq) bool {
	h := uint64(14695981039346656037)
	mixIn := func(x uint64) { h = strategy.Mix64(h ^ x) }
	mixIn(uint64(d))
	for i, st := range w.v {
		mixIn(uint64(st.g) | b2u(w.beforeLast[i])<<32)
		for _, e := range st.fp {
			mixIn(uint64(uint32(e.G)) | uint64(e.Op)<<32 | uint64(uint32(e.Obj))<<40)
		}
		for _, c := range st.sel {
			mixIn(uint64(c) | 1<<63)
		}
	}
	if s.exported == nil {
		s.exported = map[uint64]bool{}
	}
	if s.exported[h] {
		return false
	}
	s.exported[h] = true
	return true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// beginJob starts the next execution of the current job, or the first
// of the next job.
func (s *DPOR) beginJob() bool {
	if s.job != nil {
		broken := len(s.nodes) <= int(s.root) // the program did not follow the job's path
		if broken {
			s.inexact = true
		}
		if !broken && s.jobs.Between(s.ran) == strategy.Go {
			if s.backtrackFrom(int(s.floor)) {
				return true
			}
			s.endJob(false, true)
		} else {
			s.endJob(false, false)
		}
	}
	j, ok := s.jobs.Next()
	if !ok {
		s.done = true
		return false
	}
	s.startJob(j)
	return true
}

// startJob begins to explore job j.
func (s *DPOR) startJob(j *Job) {
	s.job, s.ran, s.exports, s.firstLen = j, 0, nil, 0
	clear(s.exported)
	s.cut, s.inexact = false, false
	s.SleepBlocked, s.Diverged = 0, 0
	// The path's nodes: the job only reads them, but the footprint of
	// its option at its node (the root), which it records in a copy.
	depth := 0
	for x := j.node; x != nil; x = x.parent {
		depth++
	}
	s.nodes = s.nodes[:0]
	for i := 0; i < depth; i++ {
		s.nodes = append(s.nodes, dnode{})
	}
	for x, at, i := j.node, j.opt, depth-1; x != nil; x, at, i = x.parent, x.at, i-1 {
		s.nodes[i] = x.n
		s.nodes[i].chosen = at
	}
	s.root = int32(depth - 1)
	s.floor = max(j.Floor, s.root+1)
	if s.root >= 0 {
		n := &s.nodes[s.root]
		n.fps = append([][]event.Event(nil), n.fps...)
		if j.sub != nil {
			s.gcur, s.grem, s.gfrom = j.sub, true, len(s.nodes)
		}
	}
}

// Abandon implements Abandoner.
func (s *DPOR) Abandon() {
	if s.job != nil {
		s.endJob(false, false)
	}
}

// endJob reports the current job's result.
func (s *DPOR) endJob(finding, ended bool) {
	r := &Result{
		Job: s.job, Executions: s.ran, Finding: finding, Ended: ended,
		Incomplete: s.cut || s.inexact, SleepBlocked: s.SleepBlocked, Diverged: s.Diverged,
		races: s.exports, leaf: s.firstLen < s.floor,
	}
	if s.root >= 0 && int(s.root) < len(s.nodes) {
		// The footprint of the root's option, which a Select point (a
		// select's or a Pool's choice) does not keep.
		if n := &s.nodes[s.root]; n.chosen >= 0 && n.chosen < len(n.fps) {
			r.fp = n.fps[n.chosen]
		}
	}
	if lo, hi := int(s.root)+1, min(int(s.floor), len(s.nodes)); lo < hi {
		// The next job replaces the nodes: their slices are the result's.
		r.created = append([]dnode(nil), s.nodes[lo:hi]...)
	}
	s.job, s.exports = nil, nil
	s.jobs.Done(r)
}

// cnode is a node of the skeleton kept by Tree.
type cnode struct {
	n      dnode
	kids   []*cnode // the node each option leads to, in the skeleton
	parent *cnode
	at     int // the option of parent that leads here
	// supp holds, for an option explored already, the wakeup sequences
	// to explore after it that a later race inserted where the skeleton
	// does not follow the option's exploration (below the floor, past a
	// select): the option is explored again, following them. The root
	// is the option's step.
	supp []*wnode
	// end says of an explored option that its exploration met no choice
	// point after it (it ended, or every option there slept): what
	// follows it is covered.
	end []bool
	// alt holds the subtrees supplements explored below options that
	// had their node already (at.parent = this node).
	alt  []*cnode
	busy bool // its subtree has work left (mark)
}

// Tree is the skeleton of a split dpor search, and its rounds: it
// makes each round's jobs and merges their results.
type Tree struct {
	optimal bool
	bound   int // preemptions at most (-1: none)
	dropped bool
	floor   int32
	root    *cnode
	round   int
	first   bool // the first job was handed out
	scratch *DPOR
}

// NewTree returns the skeleton of a search with wakeup trees
// (optimal) or source sets, bounded to bound preemptions (source sets;
// negative: none).
func NewTree(optimal bool, bound int) *Tree {
	sc := NewSource(0)
	sc.optimal, sc.bound = optimal, bound
	return &Tree{optimal: optimal, bound: bound, floor: Floor, scratch: sc}
}

// Dropped reports whether an option beyond the bound of preemptions was
// left out.
func (t *Tree) Dropped() bool { return t.dropped }

// Round returns the jobs of the next round, in their order (none: the
// search is over).
func (t *Tree) Round() []*Job {
	var jobs []*Job
	if !t.first {
		t.first = true
		jobs = append(jobs, &Job{Floor: t.floor})
	} else if t.root != nil {
		t.walk(t.root, func(c *cnode) {
			if k := t.supplement(c); k >= 0 {
				// The option again, following what was inserted after it.
				jobs = append(jobs, &Job{Floor: t.floor, node: c, opt: k, sub: c.supp[k]})
				c.supp[k] = nil
			} else if k := t.pending(&c.n); k >= 0 {
				c.n.start(k)
				var sub *wnode
				if c.n.sub != nil {
					sub = c.n.sub[k]
				}
				jobs = append(jobs, &Job{Floor: t.floor, node: c, opt: k, sub: sub})
			}
		})
	}
	for i, j := range jobs {
		j.Round, j.Index = t.round, i
	}
	t.round++
	return jobs
}

// walk visits the skeleton depth first, a node before its subtrees.
func (t *Tree) walk(c *cnode, f func(*cnode)) {
	f(c)
	for _, k := range c.kids {
		if k != nil {
			t.walk(k, f)
		}
	}
	for _, a := range c.alt {
		t.walk(a, f)
	}
}

// pending returns the option a round explores from n next, as dpor's
// Begin chooses it, or -1.
func (t *Tree) pending(n *dnode) int {
	ok := func(k int) bool {
		return n.backtrack[k] && !n.done[k] && !(n.kind == strategy.Thread && asleep(n.sleep, n.gs[k]))
	}
	if t.optimal {
		for _, k := range n.order {
			if ok(k) {
				return k
			}
		}
		return -1
	}
	for k := range n.backtrack {
		if !ok(k) {
			continue
		}
		if t.bound >= 0 && int(n.pre+b2i(n.preempts(k))) > t.bound {
			n.done[k], t.dropped = true, true // as Begin drops it
			continue
		}
		return k
	}
	return -1
}

// supplement returns the first option of c with sequences to explore
// after it again, or -1.
func (t *Tree) supplement(c *cnode) int {
	for _, k := range c.n.order {
		if k < len(c.supp) && c.supp[k] != nil {
			return k
		}
	}
	return -1
}

// Merge merges the results of a round, given in the order of its jobs.
// The jobs' nodes are attached before any race is reversed, so that a
// race that goes below an option another job of the round explored finds
// what that job explored.
func (t *Tree) Merge(results []*Result) {
	for _, r := range results {
		j := r.Job
		c, k := j.node, -1
		if c != nil {
			k = j.opt
			if r.fp != nil {
				c.n.fps[k] = r.fp
			}
		}
		last, lk := t.attach(c, k, r.created)
		if r.leaf && last != nil {
			if last.end == nil {
				last.end = make([]bool, len(last.n.done))
			}
			last.end[lk] = true
		}
	}
	for _, r := range results {
		if len(r.races) == 0 {
			continue
		}
		xs, chosen := r.Job.chain()
		for _, rc := range r.races {
			t.reverse(xs, chosen, rc)
		}
	}
	if t.root != nil {
		t.mark(t.root)
		t.prune(t.root, false)
	}
}

// attach hangs the chain of nodes a job created below option k of c
// (or at the root), and returns the last node of the chain and the
// option the job took there. A supplement's chain below an option that
// has its node already is a subtree of its own (alt).
func (t *Tree) attach(c *cnode, k int, created []dnode) (*cnode, int) {
	for _, n := range created {
		x := &cnode{n: n, kids: make([]*cnode, len(n.done)), parent: c, at: k}
		switch {
		case c == nil:
			t.root = x
		case c.kids[k] == nil:
			c.kids[k] = x
		default:
			c.alt = append(c.alt, x)
		}
		c, k = x, n.chosen
	}
	return c, k
}

// reverse reverses a race a job returned, at the node of its path: xs
// are the path's nodes, as the skeleton has them now, and chosen the
// options it takes.
func (t *Tree) reverse(xs []*cnode, chosen []int, rc dporRace) {
	if rc.W != nil {
		t.insert(xs[rc.Node], chosen[rc.Node], rc.W)
		return
	}
	// Source sets: dpor's backtrack, on copies of the path's nodes with
	// the options the path takes (the bound's conservative backtracking
	// walks up them).
	sc := t.scratch
	sc.nodes = sc.nodes[:0]
	for i, x := range xs[:rc.Node+1] {
		n := x.n
		n.chosen = chosen[i]
		sc.nodes = append(sc.nodes, n)
	}
	init := map[int32]bool{}
	for _, g := range rc.Init {
		init[g] = true
	}
	sc.backtrack(rc.Node, init, rc.G)
	for i, x := range xs[:rc.Node+1] {
		x.n = sc.nodes[i]
	}
}

// insert inserts w = notdep(j).p, from a race of the job whose path
// takes option chosen at c, into the wakeup tree of c, as dpor's insert
// does while chosen is explored: unless a sleeper of c, or an option
// explored from c before chosen, is a weak initial of w, it goes below
// the first option (pending, or explored since chosen was) that is one,
// or becomes a new branch.
func (t *Tree) insert(c *cnode, chosen int, w *wseq) {
	if !coveredBefore(&c.n, chosen, w) {
		t.descend(c, chosen, w)
	}
}

// coveredBefore reports whether a sleeper of n, or an option explored
// from n before chosen, is a weak initial of w: their explorations
// cover it. What it reads of n is fixed before the round of the job
// that took chosen, so that the job leaves out the races it covers
// (they would go for nothing through the processes' files and merges).
func coveredBefore(n *dnode, chosen int, w *wseq) bool {
	for _, sl := range n.sleep {
		if _, ok := w.weakInitial(sl.g, sl.fp, true, sl.maxObj, sl.minObj); ok {
			return true
		}
	}
	for k, done := range n.done {
		if done && k != chosen && n.rank[k] < n.rank[chosen] {
			if _, ok := w.weakInitial(n.gs[k], n.fps[k], n.fps[k] != nil, n.maxObj, n.minObj); ok {
				return true
			}
		}
	}
	return false
}

// descend inserts w into the wakeup tree of c below the options after
// skip (-1: every option). Dpor inserts into the subtree of an option it
// has not explored yet; a round may have explored it already, and made
// its subtree the options of the node it leads to: the insertion goes on
// there, as it would have gone on in the subtree. Where the skeleton has
// no such node, the option gets w's rest as a supplement.
func (t *Tree) descend(c *cnode, skip int, w *wseq) {
	n := &c.n
	for _, k := range n.order {
		if k == skip || skip >= 0 && n.done[k] && n.rank[k] < n.rank[skip] {
			continue
		}
		if n.done[k] {
			i, ok := w.weakInitial(n.gs[k], n.fps[k], n.fps[k] != nil, n.maxObj, n.minObj)
			if !ok {
				continue
			}
			if i >= 0 {
				w.rm[i] = true
			}
			switch kid := c.kids[k]; {
			case kid != nil && kid.n.kind == strategy.Thread:
				t.descend(kid, -1, w)
			case kid == nil && k < len(c.end) && c.end[k]:
				// Nothing to choose after it: what is left of w runs
				// as it ran, or a sleeper's exploration covers it.
			default:
				t.supplementAt(c, k, w)
			}
			return
		}
		if n.insertBelow(k, w) {
			return
		}
	}
	k, r := n.restOption(w)
	switch {
	case r == nil:
	case n.done[k]:
		// Explored, but not a weak initial: cannot be (an initial is
		// one); explored again, to be safe.
		t.supplementAt(c, k, w)
	default:
		n.plant(k, r)
	}
}

// supplementAt has option k of c, explored already, explored again
// followed by what is left of w.
func (t *Tree) supplementAt(c *cnode, k int, w *wseq) {
	left := false
	for _, rm := range w.rm {
		left = left || !rm
	}
	if !left {
		return // w is the option's step: explored
	}
	if c.supp == nil {
		c.supp = make([]*wnode, len(c.n.done))
	}
	if c.supp[k] == nil {
		c.supp[k] = &wnode{g: c.n.gs[k], fp: c.n.fps[k], known: c.n.fps[k] != nil}
	}
	c.supp[k].kids = w.insert(c.supp[k].kids, c.n.maxObj, c.n.minObj)
}

// prune drops the subtrees of the skeleton that no job will return a
// race to and no insertion will go below (so that the skeleton keeps as
// many nodes as there is work going on). An insertion at a node goes
// below its options explored after the option whose subtree raced (and
// below every option, when it came from above), so the subtree of
// option q of c is kept while it has work left, or an option explored
// from c before q has, or an insertion may come from above (reach).
func (t *Tree) prune(c *cnode, reach bool) {
	busy := map[int]bool{}
	for k, kid := range c.kids {
		busy[k] = kid != nil && kid.busy
	}
	for _, a := range c.alt {
		busy[a.at] = busy[a.at] || a.busy
	}
	keep := func(k int) (bool, bool) {
		r := reach
		for p, b := range busy {
			r = r || b && c.n.rank[p] != 0 && c.n.rank[p] < c.n.rank[k]
		}
		return r || busy[k], r
	}
	for k, kid := range c.kids {
		if kid == nil {
			continue
		}
		if ok, r := keep(k); ok {
			t.prune(kid, r)
		} else {
			c.kids[k] = nil
		}
	}
	alt := c.alt[:0]
	for _, a := range c.alt {
		if ok, r := keep(a.at); ok {
			t.prune(a, r)
			alt = append(alt, a)
		}
	}
	c.alt = alt
}

// mark notes in every node whether its subtree has work left: an option
// to explore, or a supplement.
func (t *Tree) mark(c *cnode) bool {
	c.busy = t.pending(&c.n) >= 0 || t.supplement(c) >= 0
	for _, k := range c.kids {
		if k != nil && t.mark(k) {
			c.busy = true
		}
	}
	for _, a := range c.alt {
		if t.mark(a) {
			c.busy = true
		}
	}
	return c.busy
}

// LocalRounds runs the rounds of a split dpor search in one process, the
// jobs of a round one after the other in their order, which is the order
// the search numbers its executions in; what processes sharing the jobs
// out explore too. Shuffle, when set (tests), runs the jobs of a round
// in another order: the merge still takes their results in theirs.
type LocalRounds struct {
	Tree    *Tree
	Limit   int // executions at most
	Shuffle func(jobs []*Job)
	// Encode (tests) has every result encoded and decoded before the
	// merge, as it travels between processes.
	Encode bool

	queue   []*Job
	results []*Result
	ran     int // executions of the jobs that ended

	// Jobs and Rounds count the jobs and rounds run; SleepBlocked and
	// Diverged add up the jobs'.
	Jobs, Rounds           int
	SleepBlocked, Diverged int
	incomplete, over       bool
}

// NewLocalRounds returns the rounds of a search with wakeup trees
// (optimal) or source sets, bounded to bound preemptions (negative:
// none), run in this process, limit executions at most.
func NewLocalRounds(optimal bool, bound, limit int) *LocalRounds {
	return &LocalRounds{Tree: NewTree(optimal, bound), Limit: limit}
}

// Next implements Jobs.
func (l *LocalRounds) Next() (*Job, bool) {
	if l.ran >= l.Limit {
		l.over = true // the jobs left come past the search's end
		return nil, false
	}
	for len(l.queue) == 0 {
		if l.over {
			return nil, false
		}
		sort.Slice(l.results, func(a, b int) bool { return l.results[a].Job.Index < l.results[b].Job.Index })
		l.Tree.Merge(l.results)
		l.results = nil
		l.queue = l.Tree.Round()
		if len(l.queue) == 0 {
			l.over = true
			return nil, false
		}
		l.Rounds++
		if l.Shuffle != nil {
			l.Shuffle(l.queue)
		}
	}
	j := l.queue[0]
	l.queue = l.queue[1:]
	l.Jobs++
	return j, true
}

// Between implements Jobs.
func (l *LocalRounds) Between(ran int) strategy.Action {
	if l.ran+ran >= l.Limit {
		return strategy.Stop
	}
	return strategy.Go
}

// Done implements Jobs.
func (l *LocalRounds) Done(r *Result) {
	if l.Encode {
		b, _ := r.MarshalBinary()
		job := r.Job
		var err error
		if r, err = UnmarshalResult(b, func(int, int) *Job { return job }); err != nil {
			panic(err)
		}
	}
	l.results = append(l.results, r)
	l.ran += r.Executions
	l.SleepBlocked += r.SleepBlocked
	l.Diverged += r.Diverged
	l.incomplete = l.incomplete || r.Incomplete || !r.Ended
}

// Complete reports whether the search covered its space: every round ran
// to its end, within the limit, and no job was cut or stopped.
func (l *LocalRounds) Complete() bool { return l.Bounded() && !l.Tree.dropped }

// Bounded reports whether the search covered its space within its bound
// of preemptions (Complete: and nothing lay beyond it).
func (l *LocalRounds) Bounded() bool {
	return l.over && len(l.queue) == 0 && l.ran < l.Limit && !l.incomplete
}
