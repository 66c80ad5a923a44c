package strategy

// PCB is iterative context bounding (Musuvathi and Qadeer, "Iterative
// context bounding for systematic testing of multithreaded programs", PLDI
// 2007, section 3 and the algorithm of figure 2): every schedule with at
// most K preemptions, those with 0 preemptions first, then 1, and so on,
// each run once. A preemption is a choice, at a Thread point, of another
// option than the goroutine that reached the point while it could go on
// (Point.Current among the options); the timer firing then counts as one.
// Choosing among goroutines when the current one blocked or exited is
// free, as is every Select choice, so with bound k the search is a DFS
// over the free choices. A preemptive alternative met under bound k is
// queued as a prefix for bound k+1 (the work queue of figure 2).
//
// Complete reports whether the whole space was covered: no preemptive
// alternative was left beyond K.
//
// With Jobs (NewPCBJobs) it explores the items, and parts of items, that a
// split search hands it (jobs.go); the items of the next bound it meets
// are its jobs' children.
type PCB struct {
	max     int     // K
	level   int     // current bound k
	queue   [][]int // prefixes for level, each ending with its k-th preemption
	next    [][]int // prefixes for level+1
	prefix  []int   // the item being explored
	stack   []dfsFrame
	depth   int
	path    []int // the choices of this iteration
	done    bool
	dropped bool // a preemption beyond K was not explored
	cut     bool
	inexact bool
	maxDep  int

	runner jobRunner
	item   Job     // the item (or part of one) being explored
	items  [][]int // the prefixes of the items after it in its job
	born   []Job   // the bundles of items of the next bound met so far
}

// NewPCB returns a PCB strategy exploring up to k preemptions (k < 0 means
// 0); maxDepth bounds the choice points per iteration (<= 0: 10000).
func NewPCB(k, maxDepth int) *PCB {
	if k < 0 {
		k = 0
	}
	if maxDepth <= 0 {
		maxDepth = 10000
	}
	// The first item is the empty prefix, at level 0.
	return &PCB{max: k, maxDep: maxDepth, queue: [][]int{nil}}
}

// NewPCBJobs returns a PCB strategy bounded to k preemptions that
// explores the jobs jobs hands out.
func NewPCBJobs(jobs Jobs, k, maxDepth int) *PCB {
	s := NewPCB(k, maxDepth)
	s.queue = nil
	s.runner.jobs = jobs
	return s
}

// Name implements Strategy.
func (s *PCB) Name() string { return "pcb" }

// Begin implements Strategy: the next free choice of the item's DFS, else
// the next item of the level, else the next level.
func (s *PCB) Begin() bool {
	s.depth = 0
	if s.runner.jobs != nil {
		ok := s.runner.begin(s) // split reads the last schedule's path
		s.path = s.path[:0]
		s.done = !ok
		return ok
	}
	s.path = s.path[:0]
	var ok bool
	if s.stack, ok = advance(s.stack); ok {
		return true
	}
	for {
		if len(s.queue) > 0 {
			s.prefix = s.queue[0]
			s.queue = s.queue[1:]
			return true
		}
		if len(s.next) == 0 {
			s.done = true
			return false
		}
		s.level++
		s.queue, s.next = s.next, nil
	}
}

// start implements subtree: the item's prefix is the job's, and its
// free choices are explored depth first.
func (s *PCB) start(j Job) {
	s.level, s.stack, s.born = j.Level, s.stack[:0], nil
	s.item, s.items = Job{Key: j.Key, Prefix: j.Prefix, Level: j.Level}, j.More
	s.prefix = j.Prefix
	s.dropped, s.cut, s.inexact = false, false, false
}

// advance implements subtree: the next free choices of the item, else
// the next item of the bundle.
func (s *PCB) advance() bool {
	var ok bool
	if s.stack, ok = advance(s.stack); ok {
		return true
	}
	if len(s.items) == 0 {
		return false
	}
	s.bear()
	s.item = Job{Key: nextKey(s.item.Key), Prefix: s.items[0], Level: s.level}
	s.prefix, s.items = s.items[0], s.items[1:]
	return true
}

// nextKey returns the key of the item after the one of key k in its
// bundle.
func nextKey(k []int) []int {
	n := append([]int(nil), k...)
	n[len(n)-1]++
	return n
}

// bear makes the items of the next bound the current item met a
// bundle, keyed after the item's key.
func (s *PCB) bear() {
	if len(s.next) > 0 {
		key := append(append([]int{s.level + 1}, s.item.Key[1:]...), -1, 0)
		s.born = append(s.born, Job{Key: key, Prefix: s.next[0], More: s.next[1:], Level: s.level + 1})
	}
	s.next = nil
}

// split implements subtree: the rest of the current item, and the items
// after it.
func (s *PCB) split() []Job {
	out := rest(s.item, s.path[min(len(s.prefix), len(s.path)):], s.stack)
	s.stack = s.stack[:0]
	if len(s.items) > 0 {
		out = append(out, Job{Key: nextKey(s.item.Key), Prefix: s.items[0], More: s.items[1:], Level: s.level})
		s.items = nil
	}
	return out
}

// choices implements subtree.
func (s *PCB) choices() []int { return append([]int(nil), s.path...) }

// result implements subtree: the items of the next bound the job met,
// a bundle per item they were met in.
func (s *PCB) result() JobResult {
	s.bear()
	r := JobResult{Incomplete: s.cut || s.inexact || s.dropped, Children: s.born}
	s.born = nil
	return r
}

// Choose implements Strategy.
func (s *PCB) Choose(p *Point) int {
	d := s.depth
	s.depth++
	k := s.choose(p, d)
	s.path = append(s.path, k)
	return k
}

func (s *PCB) choose(p *Point, d int) int {
	n := len(p.Options)
	if d < len(s.prefix) {
		k := s.prefix[d]
		if k >= n {
			s.inexact = true
			k = n - 1
		}
		return k
	}
	cur := CurrentIndex(p)
	f := d - len(s.prefix)
	if f < len(s.stack) {
		fr := &s.stack[f]
		if cur >= 0 {
			n = 1
		}
		if fr.n != n {
			s.inexact = true
			fr.n = n
			if fr.chosen >= n {
				fr.chosen = n - 1
			}
		}
		if cur >= 0 {
			return cur
		}
		return fr.chosen
	}
	if d >= s.maxDep {
		s.cut = true
		return 0
	}
	if cur < 0 {
		s.stack = append(s.stack, dfsFrame{n: n})
		return 0
	}
	// Only continuing is free; each other option is a preemption, for the
	// next level.
	if s.level >= s.max {
		s.dropped = true
	} else {
		for i := range p.Options {
			if i != cur {
				s.next = append(s.next, append(append([]int(nil), s.path...), i))
			}
		}
	}
	s.stack = append(s.stack, dfsFrame{n: 1})
	return cur
}

// CurrentIndex returns the option of p that continues the goroutine that
// reached it, or -1: at a Select point, or when that goroutine cannot go
// on, every option is free.
func CurrentIndex(p *Point) int {
	if p.Kind == Thread && p.Current != 0 {
		return p.OptionOf(p.Current)
	}
	return -1
}

// End implements Strategy.
func (s *PCB) End(o Outcome) { s.runner.end(s, o) }

// Abandon implements Abandoner.
func (s *PCB) Abandon() { s.runner.abandon(s) }

// Complete implements Exhaustive.
func (s *PCB) Complete() bool { return s.Bounded() && !s.dropped }

// Bounded reports whether every schedule with at most K preemptions was
// run (Complete: and there are no others).
func (s *PCB) Bounded() bool { return s.done && !s.cut && !s.inexact }

// Level returns the preemption bound being explored.
func (s *PCB) Level() int { return s.level }
