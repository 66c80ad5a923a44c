//line testdata/callpaths.go:1
// Accesses whose address depends on a call are reported where the value
// they depend on is computed, which is evaluated once.
package callpaths; import __rt "interleave.dev/rt"

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
	func(__rtV1 *entry) *entry { __rt.Write(&__rtV1.f, __rtSites_222c577d+3); return __rtV1 }(m[key()]).f = 1; __rt.Read(m, __rtSites_222c577d+4);                   // the map is read, the entry's field written
	s[func(__rtV3 int) int { __rt.Write(&s[__rtV3], __rtSites_222c577d+6); return __rtV3 }(idx())] = s[func(__rtV2 int) int { __rt.Read(&s[__rtV2], __rtSites_222c577d+5); return __rtV2 }(idx()+1)]           // indexes evaluated once
	func(__rtV5 *entry) *entry { __rt.Write(&__rtV5.f, __rtSites_222c577d+8); return __rtV5 }(func(__rtV4 *entry) *entry { __rt.Read(&__rtV4.next, __rtSites_222c577d+7); return __rtV4 }(get()).next).f = 2                // get() and get().next
	__rt.Lock(&get().mu, __rtSites_222c577d+0)                 // an operation whose receiver depends on a call
	__rt.Send[int](func(__rtV7 *entry) *entry { __rt.Read(&__rtV7.c, __rtSites_222c577d+10); return __rtV7 }(func(__rtV6 *entry) *entry { __rt.Read(&__rtV6.next, __rtSites_222c577d+9); return __rtV6 }(get()).next).c, 1, __rtSites_222c577d+1)               // a send whose channel depends on a call
	func(__rtV8 *entry) *entry { __rt.Write(&__rtV8.f, __rtSites_222c577d+11); return __rtV8 }((__rt.Recv[*entry](ch, __rtSites_222c577d+2))).f = 3                    // a receive's result
	*func(__rtV9 *int) *int { __rt.Write(__rtV9, __rtSites_222c577d+12); return __rtV9 }(new(int)) = 4                   // a pointer from a call
	__rt.Read(&e.(*ast.SelectorExpr).X, __rtSites_222c577d+13); _ = e.(*ast.SelectorExpr).X     // a type assertion in the path
	_ = func(__rtV10 *ast.Ident) *ast.Ident { __rt.Read(&__rtV10.Name, __rtSites_222c577d+14); return __rtV10 }(ast.Unparen(e).(*ast.Ident)).Name
	p := &arr
	p[func(__rtV11 int) int { __rt.Write(&p[__rtV11], __rtSites_222c577d+15); return __rtV11 }(idx())] = 1
	if func(__rtV12 *entry) *entry { __rt.Read(&__rtV12.f, __rtSites_222c577d+16); return __rtV12 }(get()).f > 0 && func(__rtV15 *entry) *entry { __rt.Read(&__rtV15.f, __rtSites_222c577d+19); return __rtV15 }(func(__rtV14 *entry) *entry { __rt.Read(&__rtV14.next, __rtSites_222c577d+18); return __rtV14 }(get()).next).f > 0 { // each where it is evaluated
		return 1
	}
	var (
		first = get()
		f     = func(__rtV13 *entry) *entry { __rt.Read(&__rtV13.f, __rtSites_222c577d+17); return __rtV13 }(first).f // first is declared by the statement
	)
	return f
}

var __rtSites_222c577d = __rt.RegisterFile("testdata/callpaths.go", "l*get().mu\nc*get().next.c\nc*ch\nv*m[key()].f\nv*m[key()]\nv*s[idx() + 1]\nv*s[idx()]\nv*get().next\nv*get().next.f\nv*get().next\nv*get().next.c\nv*(<-ch).f\nv**new(int)\nv*e.(*ast.SelectorExpr).X\nv*ast.Unparen(e).(*ast.Ident).Name\nv*p[idx()]\nv*get().f\nv*first.f\nv*get().next\nv*get().next.f", 28, 2, 29, 15, 30, 3, 25, 2, 25, 2, 26, 13, 26, 2, 27, 2, 27, 2, 29, 2, 29, 2, 30, 2, 31, 2, 32, 6, 33, 6, 35, 2, 36, 5, 41, 11, 36, 20, 36, 20)
