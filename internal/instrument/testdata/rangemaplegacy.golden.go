//line testdata/rangemaplegacy.go:1
//go:build go1.22

// Before Go 1.23 a file cannot range over a function: a range over a map
// becomes a three-clause loop over rt.MapIter, whose order under
// exploration is the schedule's, as rt.RangeMap's is. The variables are
// declared by the init statement: one per iteration from Go 1.22 on.
package rangemaplegacy; import __rt "interleave.dev/rt"

import "fmt"

type Set map[string]struct{}

func Sum(m map[string]int) int {
	sum := 0
	for __rtIt1, _, v := __rt.RangeMapIter(m, __rtSites_3c4d0bad+0); __rtIt1.Next(); { _, v = __rtIt1.Entry();
		sum += v
	}
	return sum
}

func Keys(m map[string]int) (ks []string, fs []func() int) {
	for __rtIt2, k, v := __rt.RangeMapIter(m, __rtSites_3c4d0bad+1); __rtIt2.Next(); { k, v = __rtIt2.Entry();
		k := k + "!" // the body may redeclare the variables
		__rt.Append(ks, 1, __rtSites_3c4d0bad+12); ks = append(ks, k)
		__rt.Append(fs, 1, __rtSites_3c4d0bad+13); fs = append(fs, func() int { return v })
	}
	return ks, fs
}

func Labeled(s Set) int {
	n := 0
outer:
	for __rtIt3, k, _ := __rt.RangeMapIter(s, __rtSites_3c4d0bad+2); __rtIt3.Next(); { k = __rtIt3.Key();
		for __rtIt4, _, _ := __rt.RangeMapIter(s, __rtSites_3c4d0bad+3); __rtIt4.Next(); {
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
	for __rtIt5, _, _ := __rt.RangeMapIter(m, __rtSites_3c4d0bad+4); __rtIt5.Next(); { k, v = __rtIt5.Entry();
	}
	i := 0
	for __rtIt6, _, _ := __rt.RangeMapIter(m, __rtSites_3c4d0bad+5); __rtIt6.Next(); { ps[i].k, ps[i].v = __rtIt6.Entry(); __rt.Wrote(&ps[i].k, __rtSites_3c4d0bad+14); __rt.Wrote(&ps[i].v, __rtSites_3c4d0bad+15); 
		i++
	}
	for __rtIt7, _, _ := __rt.RangeMapIter(m, __rtSites_3c4d0bad+6); __rtIt7.Next(); { _, v = __rtIt7.Entry();
	}
	for __rtIt8, _, _ := __rt.RangeMapIter(m, __rtSites_3c4d0bad+7); __rtIt8.Next(); { k = __rtIt8.Key();
	}
	return k, v
}

// The map is evaluated once; its type need not be nameable here.
func Anonymous(next func() map[struct{ a int }]struct{ b []string }) int {
	n := 0
	for __rtIt9, k, v := __rt.RangeMapIter(next(), __rtSites_3c4d0bad+8); __rtIt9.Next(); { k, v = __rtIt9.Entry();
		n += k.a + len(v.b)
	}
	for __rtIt10, _, _ := __rt.RangeMapIter(map[int]string{
		1: "a",
		2: "b",
	}, __rtSites_3c4d0bad+9); __rtIt10.Next(); {
		n++
	}
	return n
}

func Control(m map[int]int) (n int) {
	defer fmt.Println("done")
	for __rtIt11, k, v := __rt.RangeMapIter(m, __rtSites_3c4d0bad+10); __rtIt11.Next(); { k, v = __rtIt11.Entry();
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
	__rt.Read(m, __rtSites_3c4d0bad+16); for range m { __rt.Read(m, __rtSites_3c4d0bad+17);
		c++
	}
	for __rtIt12, k, _ := __rt.RangeMapIter(n, __rtSites_3c4d0bad+11); __rtIt12.Next(); { k = __rtIt12.Key();
		_ = k
		c++
	}
	return c
}

var __rtSites_3c4d0bad = __rt.RegisterFile("testdata/rangemaplegacy.go", "v*m\nv*m\nv*s\nv*s\nv*m\nv*m\nv*m\nv*m\nv*next()\nv*map[int]string{…}\nv*m\nv*n\nv*ks\nv*fs\nv*ps[i].k\nv*ps[i].v\nv*m\nv*m", 15, 2, 22, 2, 33, 2, 34, 3, 49, 2, 52, 2, 55, 2, 57, 2, 65, 2, 68, 2, 79, 2, 100, 2, 24, 8, 25, 8, 52, 6, 52, 15, 97, 12, 97, 2)
