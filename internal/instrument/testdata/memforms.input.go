//go:build go1.23

// Memory that builtins, the standard library and method calls read and
// write for the program, reported at the call as Go's race detector sees
// it.
package memforms

import (
	"bytes"
	"maps"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"time"
)

type table struct {
	m     map[string]int
	items []int
	arr   [4]int64
	name  string
	since time.Time
	stamp
}

type stamp struct{ at, by int }

func (s stamp) When() int { return s.at }

func (t *table) Ranges() (n int) {
	for k, v := range t.m { // rt.RangeMap reads the map
		n += len(k) + v
	}
	for _, v := range t.items { // rt.RangeSlice reads each element
		n += v
	}
	for i, v := range &t.arr { // an element of the array at each iteration
		n += i + int(v)
	}
	for i := range t.items { // the header only
		n += i
	}
	for i := range t.arr { // not evaluated: nothing
		n += i
	}
	for range &t.arr { // nothing either
		n++
	}
	for _, v := range t.arr { // a copy of the whole array
		n += int(v)
	}
	return n + len(t.arr) + len(t.m) // len of an array is a constant
}

func (t *table) Builtins(src []int, s string, next func() int) {
	clear(t.items)
	clear(t.m)
	t.items = append(t.items, 1, 2)
	t.items = append(t.items, src...)
	t.items = append(t.items[:1], t.items[2:]...) // both operands are evaluated again
	t.items = append(t.items, next())             // reported after next is called
	_ = append([]int(nil), src...)                // only src is read: the first operand is new
	_ = append([]byte(s), "x"...)
	copy(t.items, src)
	copy([]byte(t.name), s) // into a new slice: nothing
	_ = cap(t.items)
}

func (t *table) Std(other map[string]int) {
	slices.Sort(t.items)
	_ = slices.Index(t.items, 3)
	_ = slices.Equal(t.items, []int{1})
	t.items = slices.Insert(t.items, 1, t.items...)
	t.items = slices.Grow(t.items, 8)
	maps.Copy(other, t.m)
	_ = slices.Collect(maps.Keys(t.m))
	sort.Ints(t.items)
	sort.Slice(t.items, func(i, j int) bool { return false })
}

type shape interface{ Area() int }

func (t *table) Methods(sh shape, p *stamp) int {
	f := p.When                      // the method value copies *p
	n := p.When()                    // so does the call
	n += t.When()                    // promoted from stamp: copies t.stamp
	n += t.stamp.When()              // the same
	if t.since.Before(time.Time{}) { // a value: reading t.since copies it
		n++
	}
	return f() + n + sh.Area() // rt.ReadRecv: a pointer in sh gets its value copied
}

func Describe(err error) string {
	return err.Error() // error is predeclared: its method has no package
}

func Buffers(b *bytes.Buffer, sb *strings.Builder) string {
	b.WriteString("x")
	sb.WriteString(b.String())
	var local bytes.Buffer
	local.WriteString("not shared")
	return sb.String() + local.String()
}

func Command(out *bytes.Buffer) error {
	cmd := exec.Command("true")
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := cmd.Wait(); err != nil {
		return err
	}
	_, err := exec.Command("true").Output()
	return err
}

func Generic[S ~[]E, E any](s S, p *[0]E) (n int) {
	for _, v := range s { // rt.RangeSlice infers S
		_ = v
		n++
	}
	for i, _ := range s { // no element is read
		n += i
	}
	for _, v := range p { // an empty array: no iteration, nothing read
		_ = v
	}
	return n
}

func Later(sh shape, p *stamp, b *bytes.Buffer, s []int) {
	defer p.When()          // the receiver is copied here
	defer sh.Area()         // the method copies it when it runs
	defer b.WriteString("") // writes the buffer when it runs
	defer slices.Sort(s)    // sorts when it runs
	defer clear(s)          // clears when it runs
	go b.WriteString(b.String())
}
