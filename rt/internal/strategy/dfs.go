package strategy

// DFS enumerates every sequence of choices depth first, one iteration per
// leaf: the exhaustive baseline of stateless model checking (Godefroid;
// papers/hapset-coverage-guided-systematic-testing.txt, section 2). It does
// no reduction. Iterations longer than MaxDepth choice points are cut: the
// choices past the bound are not explored and Complete reports false.
type DFS struct {
	maxDepth int
	stack    []dfsFrame
	depth    int
	started  bool
	cut      bool
	done     bool
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

// Name implements Strategy.
func (s *DFS) Name() string { return "dfs" }

// Begin implements Strategy: backtrack to the deepest choice point with an
// untried option.
func (s *DFS) Begin() bool {
	s.depth = 0
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

// Choose implements Strategy.
func (s *DFS) Choose(p *Point) int {
	n := p.Len()
	d := s.depth
	s.depth++
	if d < len(s.stack) {
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
func (s *DFS) End(Outcome) {}

// Indexed implements Indexed.
func (s *DFS) Indexed() {}

// Complete implements Exhaustive.
func (s *DFS) Complete() bool { return s.done && !s.cut }

// Covered implements Estimator: between iterations the stack is the path
// of the last leaf run; the subtrees left of it and that leaf are done.
func (s *DFS) Covered() float64 {
	switch {
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
