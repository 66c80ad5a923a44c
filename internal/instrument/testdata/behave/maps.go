//go:build go1.23

// Ranges over maps, outside an exploration: every entry once, deleted
// entries skipped, break, continue and labels kept.
package main

import (
	"fmt"
	"math"
	"sort"
)

func main() {
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4}
	sum := 0
	for _, v := range m {
		sum += v
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(sum, keys)

	seen := 0
	for k := range m {
		delete(m, k)
		seen++
	}
	fmt.Println(seen, len(m))

	f := map[float64]int{math.NaN(): 1, math.NaN(): 2, 1.5: 3}
	total := 0
outer:
	for k, v := range f {
		for range f {
			if k != k {
				total += v
				continue outer
			}
			total += 10 * v
			break
		}
	}
	fmt.Println(total)
}
