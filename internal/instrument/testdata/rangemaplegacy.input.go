//go:build go1.22

// Before Go 1.23 a file cannot range over a function: a range over a map
// becomes a three-clause loop over rt.MapIter, whose order under
// exploration is the schedule's, as rt.RangeMap's is. The variables are
// declared by the init statement: one per iteration from Go 1.22 on.
package rangemaplegacy

import "fmt"

type Set map[string]struct{}

func Sum(m map[string]int) int {
	sum := 0
	for _, v := range m {
		sum += v
	}
	return sum
}

func Keys(m map[string]int) (ks []string, fs []func() int) {
	for k, v := range m {
		k := k + "!" // the body may redeclare the variables
		ks = append(ks, k)
		fs = append(fs, func() int { return v })
	}
	return ks, fs
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

type pair struct{ k, v string }

// Assignments evaluate their operands in each iteration.
func Assign(m map[string]string, ps []pair) (k string, v string) {
	for k, v = range m {
	}
	i := 0
	for ps[i].k, ps[i].v = range m {
		i++
	}
	for _, v = range m {
	}
	for k, _ = range m {
	}
	return k, v
}

// The map is evaluated once; its type need not be nameable here.
func Anonymous(next func() map[struct{ a int }]struct{ b []string }) int {
	n := 0
	for k, v := range next() {
		n += k.a + len(v.b)
	}
	for range map[int]string{
		1: "a",
		2: "b",
	} {
		n++
	}
	return n
}

func Control(m map[int]int) (n int) {
	defer fmt.Println("done")
	for k, v := range m {
		defer fmt.Println(k)
		switch {
		case v < 0:
			return -1
		case v == 0:
			goto next
		}
		n += v
	next:
	}
	return n
}

// A map whose type is a type parameter keeps the native range; one whose
// type only mentions type parameters does not.
func Generic[M ~map[K]V, K comparable, V any](m M, n map[K]V) int {
	c := 0
	for range m {
		c++
	}
	for k := range n {
		_ = k
		c++
	}
	return c
}
