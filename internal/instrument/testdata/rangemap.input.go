//go:build go1.23

// A range over a map ranges over rt.RangeMap, whose order under
// exploration is the schedule's; the statement is otherwise kept.
package rangemap

type Set map[string]struct{}

func Keys(m map[string]int) (ks []string, sum int) {
	for k, v := range m {
		ks = append(ks, k)
		sum += v
	}
	return ks, sum
}

func Labeled(s Set) int {
	n := 0
outer:
	for k := range s {
		for range s {
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
	for k, v = range m {
	}
	return k, v
}

func Generic[M ~map[K]V, K comparable, V any](m M) int {
	n := 0
	for range m {
		n++
	}
	return n
}
