package difftest

import "math/rand"

// Parallel subtests. Table-driven Go tests run their cases as subtests
// that call t.Parallel: each runs in a goroutine of its own, side by side
// with its siblings, once the test function has returned, and the test
// waits for them before its cleanups. A quarter of the programs (drawn
// with a generator of their own, so that the other programs of every
// seed stay as they were) run their goroutines so: the test goroutine's
// part and each joined goroutine become a parallel subtest, a goroutine
// never joined stays a go statement, and the tail and the record move
// into a t.Cleanup. Every part still waits only for parts before it, so
// the Safe form still cannot deadlock, and every part runs side by side
// with every other, so the planted race is still one.

// subtestSeed separates the generator of the subtest choice from the
// program's.
const subtestSeed = 0x5eed_5b7e

// chooseSubtests marks one program in four as run by parallel subtests.
func chooseSubtests(p *Program) {
	p.Subtests = rand.New(rand.NewSource(p.Seed^subtestSeed)).Intn(4) == 0
}

// renderSubtests writes the body of form f after the sequential part,
// when p runs its parts as parallel subtests.
func (p *Program) renderSubtests(r *Rendered, line *int, emit func(string, ...any), f Form, y string) {
	emit("\tt.Cleanup(func() {")
	for _, t := range p.Tail {
		emit("\t\t%s", t)
	}
	emit("\t\trecord(name, digest(s, res))")
	emit("\t})")
	for gi, g := range p.Gs {
		if g.Join == "none" {
			emit("\tgo func() {")
		} else {
			emit("\tt.Run(\"g%d\", func(t *testing.T) {", gi)
			emit("\t\tt.Parallel()")
		}
		emit("\t\tacc := 0")
		p.renderStmts(r, line, emit, f, gi, g, y)
		emit("\t\tres[%d] = acc", gi)
		if g.Join == "none" {
			emit("\t}()")
		} else {
			emit("\t})")
		}
	}
}
