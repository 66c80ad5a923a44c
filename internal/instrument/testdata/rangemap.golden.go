//line testdata/rangemap.go:1
//go:build go1.23

// A range over a map ranges over rt.RangeMap, whose order under
// exploration is the schedule's; the statement is otherwise kept.
package rangemap; import __rt "interleave.dev/rt"

type Set map[string]struct{}

func Keys(m map[string]int) (ks []string, sum int) {
	for k, v := range __rt.RangeMap(m, __rtSites_7f1857a4+0) {
		__rt.Append(ks, 1, __rtSites_7f1857a4+4); ks = append(ks, k)
		sum += v
	}
	return ks, sum
}

func Labeled(s Set) int {
	n := 0
outer:
	for k := range __rt.RangeMap(s, __rtSites_7f1857a4+1) {
		for range __rt.RangeMap(s, __rtSites_7f1857a4+2) {
			if k == "" {
				continue outer
			}
			n++
			break outer
		}
	}
	return n
}

func Assign(m map[float64]bool) (k float64, v bool) {
	for k, v = range __rt.RangeMap(m, __rtSites_7f1857a4+3) {
	}
	return k, v
}

func Generic[M ~map[K]V, K comparable, V any](m M) int {
	n := 0
	__rt.Read(m, __rtSites_7f1857a4+5); for range m { __rt.Read(m, __rtSites_7f1857a4+6);
		n++
	}
	return n
}

var __rtSites_7f1857a4 = __rt.RegisterFile("testdata/rangemap.go", "v*m\nv*s\nv*s\nv*m\nv*ks\nv*m\nv*m", 10, 2, 20, 2, 21, 3, 33, 2, 11, 8, 40, 12, 40, 2)
