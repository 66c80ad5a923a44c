// Package fixed is the fixed variant of the dining-philosophers5 kernel.
package fixed

import "sync"

// Table seats philosophers around forks; philosopher i uses forks i and
// (i+1) mod n.
type Table struct {
	forks []sync.Mutex
	meals []int
}

// NewTable returns a table with n forks.
func NewTable(n int) *Table {
	return &Table{forks: make([]sync.Mutex, n), meals: make([]int, n)}
}

// Eat lets philosopher i eat once. Forks are taken lowest index first, so
// the last philosopher reaches right before left and no cycle can form.
func (t *Table) Eat(i int) {
	a, b := i, (i+1)%len(t.forks)
	if b < a {
		a, b = b, a
	}
	t.forks[a].Lock()
	t.forks[b].Lock()
	t.meals[i]++
	t.forks[b].Unlock()
	t.forks[a].Unlock()
}
