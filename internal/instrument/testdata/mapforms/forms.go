//go:build go1.22

// Ranges over maps under an exploration, in every form of the statement;
// each schedule prints what its ranges produced, in order. Instrumented
// as a file of Go 1.22 (loops over rt.MapIter) and of Go 1.23 (ranges
// over rt.RangeMap), the program prints the same lines.
package main

import (
	"fmt"
	"math"
	"os"
	"strings"
	"sync"

	"interleave.dev/rt"
)

type Set map[string]struct{}

type pair struct{ k, v string }

func run() string {
	var b strings.Builder
	out := func(a ...any) { fmt.Fprint(&b, a...); b.WriteString(" ") }

	// Another goroutine makes the events, and the orders, differ between
	// schedules.
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		mu.Unlock()
	}()
	mu.Lock()
	mu.Unlock()

	// Entries deleted before they are reached are not produced, added
	// ones are not either, and values are the map's when reached.
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}
	n := 0
	for k, v := range m {
		out(k, v)
		if n++; n == 2 {
			delete(m, "a")
			delete(m, "f")
			m["c"], m["e"], m["z"] = 30, 50, 26
		}
	}
	out("|")

	// Assignments, evaluated in each iteration; key only; nothing.
	ps := make([]pair, 8)
	vals := map[string]string{"x": "1", "y": "2", "z": "3"}
	i := 0
	for ps[i].k, ps[i].v = range vals {
		i++
	}
	out(ps[:i])
	var key string
	for key = range vals {
		out(key)
	}
	for _, key = range vals {
		out(key)
	}
	count := 0
	for range vals {
		count++
	}
	out(count, "|")

	// Per-iteration variables captured by closures; labels.
	var fs []func() string
	s := Set{"p": {}, "q": {}, "r": {}, "s": {}}
outer:
	for k := range s {
		fs = append(fs, func() string { return k })
		for l := range s {
			if l == k {
				continue outer
			}
			if l == "s" {
				break outer
			}
			out(k + l)
		}
	}
	for i := range fs { // (with a value, a slice's range differs by version)
		out(fs[i]())
	}
	out("|")

	// A map evaluated once, of a type not named; NaN keys, until a
	// clear.
	calls := 0
	get := func() map[struct{ a int }]struct{ b string } {
		calls++
		return map[struct{ a int }]struct{ b string }{{1}: {"one"}, {2}: {"two"}, {3}: {"three"}}
	}
	for k, v := range get() {
		out(k.a, v.b)
	}
	out(calls)
	f := map[float64]int{math.NaN(): 7, math.NaN(): 7, 1: 1, 2: 2, 3: 3}
	for k, v := range f {
		out(k, v)
		if v == 2 {
			clear(f)
		}
	}
	out("|", firstOver(m))
	wg.Wait()
	return b.String()
}

// firstOver returns the first key whose value is over 3, through a
// return and a defer in the body.
func firstOver(m map[string]int) (r string) {
	for k, v := range m {
		defer func() { r += "." }()
		if v > 3 {
			return k
		}
	}
	return ""
}

func main() {
	var lines []string
	rep, err := rt.Explore("forms", rt.Options{Schedules: 40, ScheduleDir: "-"}, func() {
		lines = append(lines, run())
	})
	if err != nil || rep.Kind != "" {
		fmt.Println("exploration:", rep.Kind, err)
		os.Exit(1)
	}
	fmt.Println(strings.Join(lines, "\n"))
}
