//go:build go1.21

// Ranges over maps in a file before Go 1.22, outside an exploration: the
// variables are shared by all iterations, assignments evaluate their
// operands in each iteration, the map is evaluated once, entries deleted
// before they are reached are not produced, values are the map's when
// reached, and labels, goto, defer and return keep their meaning.
package main

import (
	"fmt"
	"math"
	"sort"
)

type kv struct {
	k string
	v int
}

func main() {
	m := map[string]int{"a": 1, "b": 2, "c": 3}

	// One k and one v for the whole loop.
	var fs []func() string
	var ps []*int
	last := ""
	for k, v := range m {
		fs = append(fs, func() string { return k })
		ps = append(ps, &v)
		last = k
	}
	same := true
	for _, f := range fs {
		same = same && f() == last
	}
	fmt.Println("shared:", same, len(fs), ps[0] == ps[1] && ps[1] == ps[2])

	// Assignments evaluate their operands in each iteration.
	keys, vals := make([]string, 3), make([]int, 3)
	i := 0
	for keys[i], vals[i] = range m {
		i++
	}
	items := make([]kv, 3)
	p := &items[0]
	n := 0
	for p.k, p.v = range m {
		if n++; n < 3 {
			p = &items[n]
		}
	}
	sort.Strings(keys)
	sort.Ints(vals)
	sort.Slice(items, func(a, b int) bool { return items[a].k < items[b].k })
	fmt.Println("assigned:", keys, vals, items)
	var key string
	count := 0
	for key = range m {
		count++
	}
	for _, count = range m {
	}
	fmt.Println("key:", m[key] > 0, count > 0)

	// The map is evaluated once.
	calls := 0
	get := func() map[string]int { calls++; return m }
	for range get() {
	}
	fmt.Println("calls:", calls)

	// Deleted entries are not produced; values are current.
	d := map[int]int{1: 1, 2: 2, 3: 3, 4: 4}
	seen := 0
	for k := range d {
		seen++
		for o := range d {
			if o != k {
				delete(d, o)
			}
		}
	}
	u := map[int]int{1: 1, 2: 2, 3: 3}
	zeros, first := 0, true
	for _, v := range u {
		if first {
			first = false
			for o := range u {
				u[o] = 0
			}
			continue
		}
		if v == 0 {
			zeros++
		}
	}
	fmt.Println("deleted:", seen, len(d), "current:", zeros)

	// NaN keys; a type this file cannot name.
	f := map[float64]int{math.NaN(): 1, math.NaN(): 2, 1: 4}
	total := 0
	for k, v := range f {
		if k != k {
			total += v
		}
	}
	a := map[struct{ x int }]struct{ y string }{{1}: {"one"}, {2}: {"two"}}
	var ys []string
	for k, v := range a {
		ys = append(ys, fmt.Sprint(k.x, v.y))
	}
	sort.Strings(ys)
	fmt.Println("NaN:", total, ys)

	fmt.Println(control(m))
}

// control breaks, continues, jumps and returns out of nested ranges, and
// defers in them.
func control(m map[string]int) (k string, n, deferred int) {
	defer func() { deferred *= 10 }()
	iterations := 0
outer:
	for range m {
		for range m {
			iterations++
			break outer
		}
	}
	n += iterations
outer2:
	for range m {
		for range m {
			n++
			continue outer2
		}
	}
	for _, v := range m {
		if v == 2 {
			goto skip
		}
		n += v
	skip:
	}
	for range m {
		defer func() { deferred++ }()
	}
	for k, v := range m {
		if v == 2 {
			return k, n, deferred
		}
	}
	return "", n, deferred
}
