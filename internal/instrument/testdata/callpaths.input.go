// Accesses whose address depends on a call are reported where the value
// they depend on is computed, which is evaluated once.
package callpaths

import (
	"go/ast"
	"sync"
)

type entry struct {
	f    int
	next *entry
	mu   sync.Mutex
	c    chan int
	arr  [2]int
}

func key() string { return "k" }

func idx() int { return 0 }

func get() *entry { return nil }

func Paths(m map[string]*entry, s []int, arr [4]int, ch chan *entry, e ast.Expr) int {
	m[key()].f = 1                  // the map is read, the entry's field written
	s[idx()] = s[idx()+1]           // indexes evaluated once
	get().next.f = 2                // get() and get().next
	get().mu.Lock()                 // an operation whose receiver depends on a call
	get().next.c <- 1               // a send whose channel depends on a call
	(<-ch).f = 3                    // a receive's result
	*new(int) = 4                   // a pointer from a call
	_ = e.(*ast.SelectorExpr).X     // a type assertion in the path
	_ = ast.Unparen(e).(*ast.Ident).Name
	p := &arr
	p[idx()] = 1
	if get().f > 0 && get().next.f > 0 { // each where it is evaluated
		return 1
	}
	var (
		first = get()
		f     = first.f // first is declared by the statement
	)
	return f
}
