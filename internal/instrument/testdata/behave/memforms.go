//go:build go1.23

// Ranges over slices and arrays, builtins, functions of slices and maps,
// method values and buffers, outside an exploration: the reports of what
// they read and write change nothing.
package main

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
)

type point struct{ x, y int }

func (p point) sum() int { return p.x + p.y }

type summer interface{ Sum() int }

type pair struct{ a, b int }

func (p pair) Sum() int { return p.a + p.b }

type holder struct {
	items []int
	arr   [3]int
	point
}

func main() {
	h := &holder{items: []int{3, 1, 2}, arr: [3]int{7, 8, 9}, point: point{1, 2}}
	// A range sees the elements as they are when it reaches them, over
	// the length it started with.
	for i, v := range h.items {
		if i == 0 {
			h.items[1] = 10
			h.items = append(h.items, 99)
		}
		fmt.Print(v, " ")
	}
	fmt.Println()
outer:
	for i, v := range &h.arr {
		for _, w := range h.items {
			if w == 99 {
				continue outer
			}
			if v == 9 {
				break outer
			}
		}
		fmt.Println("unreached", i)
	}
	total := 0
	for _, v := range h.arr {
		h.arr[2] = 0 // the range has its own copy
		total += v
	}
	fmt.Println(total, h.arr)
	fmt.Println(deferInRange(h.items))

	buf := make([]int, 1, 4)
	a := append(buf, 5, 6)
	b := append(buf[:1:1], 7)
	c := append(a[:1], a[2:]...)
	n := copy(buf[:cap(buf)], a)
	m := copy(make([]byte, 2), "xyz")
	clear(c)
	fmt.Println(a, b, c, n, m, len(buf), cap(buf))

	s := []int{5, 3, 4}
	slices.Sort(s)
	s = slices.Insert(s, 1, s...)
	s = slices.Grow(s, 10)
	mp := map[string]int{"a": 1}
	cp := maps.Clone(mp)
	maps.Copy(cp, map[string]int{"b": 2})
	fmt.Println(s, slices.Index(s, 4), len(cp), slices.Sorted(maps.Keys(cp)))

	p := &h.point
	f := p.sum
	p.x = 100
	var sm summer = &pair{2, 3}
	fmt.Println(f(), p.sum(), h.sum(), sm.Sum())

	var bb bytes.Buffer
	bb.WriteString("buf")
	var sb strings.Builder
	sb.WriteString(bb.String())
	fmt.Println(sb.String(), sb.Len(), bb.Len())
}

func deferInRange(xs []int) (out int) {
	for i, x := range xs {
		defer func() { out += i * x }()
		if x == 99 {
			return -1
		}
	}
	return 0
}
