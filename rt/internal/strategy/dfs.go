package strategy

// DFS enumerates every sequence of choices depth first, one iteration per
// leaf: the exhaustive baseline of stateless model checking (Godefroid;
// papers/hapset-coverage-guided-systematic-testing.txt, section 2). It does
// no reduction. Iterations longer than MaxDepth choice points are cut: the
// choices past the bound are not explored and Complete reports false.
//
// With Jobs (NewDFSJobs) it explores the subtrees a split search hands
// it (jobs.go) instead of the whole tree.
type DFS struct {
	maxDepth int
	stack    []dfsFrame
	depth    int
	started  bool
	cut      bool
	done     bool

	runner  jobRunner
	prefix  []int // the job's prefix
	inexact bool  // the program did not follow the job's prefix
}

type dfsFrame struct {
	n, chosen int
}

// NewDFS returns a DFS strategy; maxDepth <= 0 means 10000.
func NewDFS(maxDepth int) *DFS {
	if maxDepth <= 0 {
		maxDepth = 10000
	}
	return &DFS{maxDepth: maxDepth}
}

// NewDFSJobs returns a DFS strategy that explores the jobs jobs hands
// out.
func NewDFSJobs(jobs Jobs, maxDepth int) *DFS {
	s := NewDFS(maxDepth)
	s.runner.jobs = jobs
	return s
}

// Name implements Strategy.
func (s *DFS) Name() string { return "dfs" }

// Begin implements Strategy: backtrack to the deepest choice point with an
// untried option.
func (s *DFS) Begin() bool {
	s.depth = 0
	if s.runner.jobs != nil {
		if s.runner.begin(s) {
			return true
		}
		s.done = true
		return false
	}
	if !s.started {
		s.started = true
		return true
	}
	var ok bool
	if s.stack, ok = advance(s.stack); ok {
		return true
	}
	s.done = true
	return false
}

// advance moves a depth-first stack to its next leaf: the deepest frame
// with an untried option takes it, the frames below it are dropped. It
// returns false when every frame is exhausted.
func advance(stack []dfsFrame) ([]dfsFrame, bool) {
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.chosen+1 < top.n {
			top.chosen++
			return stack, true
		}
		stack = stack[:len(stack)-1]
	}
	return stack, false
}

// start implements subtree.
func (s *DFS) start(j Job) {
	s.prefix, s.stack, s.cut, s.inexact = j.Prefix, s.stack[:0], false, false
}

// advance implements subtree.
func (s *DFS) advance() bool {
	var ok bool
	s.stack, ok = advance(s.stack)
	return ok
}

// split implements subtree.
func (s *DFS) split() []Job {
	out := rest(s.runner.job, s.below(), s.stack)
	s.stack = s.stack[:0]
	return out
}

// below returns the choices of the last schedule below the job's
// prefix.
func (s *DFS) below() []int {
	path := make([]int, len(s.stack))
	for i, f := range s.stack {
		path[i] = f.chosen
	}
	return path
}

// choices implements subtree.
func (s *DFS) choices() []int { return append(append([]int(nil), s.prefix...), s.below()...) }

// result implements subtree.
func (s *DFS) result() JobResult { return JobResult{Incomplete: s.cut || s.inexact} }

// Choose implements Strategy.
func (s *DFS) Choose(p *Point) int {
	n := p.Len()
	d := s.depth
	s.depth++
	if d < len(s.prefix) {
		k := s.prefix[d]
		if k >= n {
			s.inexact = true // the program did not repeat itself
			k = n - 1
		}
		return k
	}
	if d := d - len(s.prefix); d < len(s.stack) {
		f := &s.stack[d]
		if f.n != n {
			// The program did not repeat itself under the same prefix
			// (uncontrolled nondeterminism): follow the new shape.
			f.n = n
			if f.chosen >= n {
				f.chosen = n - 1
			}
		}
		return f.chosen
	}
	if d >= s.maxDepth {
		s.cut = true
		return 0
	}
	s.stack = append(s.stack, dfsFrame{n: n})
	return 0
}

// End implements Strategy.
func (s *DFS) End(o Outcome) { s.runner.end(s, o) }

// Abandon implements Abandoner.
func (s *DFS) Abandon() { s.runner.abandon(s) }

// Indexed implements Indexed.
func (s *DFS) Indexed() {}

// Complete implements Exhaustive.
func (s *DFS) Complete() bool { return s.done && !s.cut }

// Covered implements Estimator: between iterations the stack is the path
// of the last leaf run; the subtrees left of it and that leaf are done.
// Exploring jobs, it does not know the share of the space they are: 0.
func (s *DFS) Covered() float64 {
	switch {
	case s.runner.jobs != nil:
		return 0
	case s.done:
		return 1
	case !s.started:
		return 0
	}
	covered, w := 0.0, 1.0
	for _, f := range s.stack {
		w /= float64(f.n)
		covered += float64(f.chosen) * w
	}
	return covered + w
}
