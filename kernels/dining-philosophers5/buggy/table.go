// Package buggy is the buggy variant of the dining-philosophers5 kernel.
package buggy

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

// Eat lets philosopher i eat once.
func (t *Table) Eat(i int) {
	left, right := i, (i+1)%len(t.forks)
	t.forks[left].Lock() // BUG: everyone takes the left fork first
	t.forks[right].Lock()
	t.meals[i]++
	t.forks[right].Unlock()
	t.forks[left].Unlock()
}
