//go:build go1.22

// Ranges over slices, arrays and maps in a file that cannot range over
// functions, outside an exploration: the reads reported at the start of
// each body, and the key variable declared for them, change nothing.
package main

import (
	"fmt"
	"sort"
)

func main() {
	xs := []int{1, 2, 3}
	sum := 0
	for _, x := range xs {
		if x == 1 {
			xs[2] = 30 // seen when the range gets there
		}
		sum += x
	}
	var i, x int
	for i, x = range xs {
		sum += i * x
	}
	arr := [3]int{4, 5, 6}
	p := &arr
	for _, v := range p {
		sum += v
	}
	m := map[string]int{"a": 1, "b": 2}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(sum, i, x, keys)
}
