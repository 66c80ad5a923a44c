//line testdata/memforms.go:1
//go:build go1.23

// Memory that builtins, the standard library and method calls read and
// write for the program, reported at the call as Go's race detector sees
// it.
package memforms; import __rt "interleave.dev/rt"

import (
	"bytes"
	"maps"
	"os/exec"
	"slices"
	_ "sort"
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
	__rt.Read(&t.m, __rtSites_23293033+12); for k, v := range __rt.RangeMap(t.m, __rtSites_23293033+0) { // rt.RangeMap reads the map
		n += len(k) + v
	}
	__rt.Read(&t.items, __rtSites_23293033+13); for _, v := range __rt.RangeSlice(t.items, __rtSites_23293033+1) { // rt.RangeSlice reads each element
		n += v
	}
	for i, v := range __rt.RangeSlice((&t.arr)[:], __rtSites_23293033+2) { // an element of the array at each iteration
		n += i + int(v)
	}
	__rt.Read(&t.items, __rtSites_23293033+14); for i := range t.items { // the header only
		n += i
	}
	for i := range t.arr { // not evaluated: nothing
		n += i
	}
	for range &t.arr { // nothing either
		n++
	}
	__rt.Read(&t.arr, __rtSites_23293033+15); for _, v := range t.arr { // a copy of the whole array
		n += int(v)
	}
	__rt.Read(&t.m, __rtSites_23293033+16); __rt.Read(t.m, __rtSites_23293033+17); return n + len(t.arr) + len(t.m) // len of an array is a constant
}

func (t *table) Builtins(src []int, s string, next func() int) {
	__rt.Read(&t.items, __rtSites_23293033+18); __rt.WriteSlice(t.items, __rtSites_23293033+19); clear(t.items)
	__rt.Read(&t.m, __rtSites_23293033+20); __rt.Write(t.m, __rtSites_23293033+21); clear(t.m)
	__rt.Update(&t.items, __rtSites_23293033+22); __rt.Append(t.items, 2, __rtSites_23293033+23); t.items = append(t.items, 1, 2)
	__rt.Update(&t.items, __rtSites_23293033+24); __rt.Append(t.items, len(src), __rtSites_23293033+25); __rt.ReadSlice(src, __rtSites_23293033+26); t.items = append(t.items, src...)
	__rt.Update(&t.items, __rtSites_23293033+27); __rt.Append(t.items[:1], len(t.items[2:]), __rtSites_23293033+28); __rt.ReadSlice(t.items[2:], __rtSites_23293033+29); t.items = append(t.items[:1], t.items[2:]...) // both operands are evaluated again
	t.items = append(t.items, func(__rtV3 int) int { __rt.Append(t.items, 1, __rtSites_23293033+30); return __rtV3 }(next())); __rt.Wrote(&t.items, __rtSites_23293033+31);              // reported after next is called
	__rt.ReadSlice(src, __rtSites_23293033+32); _ = append([]int(nil), src...)                // only src is read: the first operand is new
	_ = append([]byte(s), "x"...)
	__rt.Read(&t.items, __rtSites_23293033+33); __rt.Copy(t.items, src, __rtSites_23293033+34); copy(t.items, src)
	__rt.Read(&t.name, __rtSites_23293033+35); copy([]byte(t.name), s) // into a new slice: nothing
	__rt.Read(&t.items, __rtSites_23293033+36); _ = cap(t.items)
}

func (t *table) Std(other map[string]int) {
	__rt.Read(&t.items, __rtSites_23293033+37); __rt.SlicesSort[[]int, int](t.items, __rtSites_23293033+3)
	__rt.Read(&t.items, __rtSites_23293033+38); __rt.ReadSlice(t.items, __rtSites_23293033+39); _ = slices.Index(t.items, 3)
	__rt.Read(&t.items, __rtSites_23293033+40); __rt.ReadSlice(t.items, __rtSites_23293033+41); _ = slices.Equal(t.items, []int{1})
	__rt.Read(&t.items, __rtSites_23293033+42); __rt.UpdateSlice(t.items, __rtSites_23293033+43); t.items = slices.Insert(t.items, 1, t.items...); __rt.Wrote(&t.items, __rtSites_23293033+44); 
	__rt.Read(&t.items, __rtSites_23293033+45); __rt.Grow(t.items, 8, __rtSites_23293033+46); t.items = slices.Grow(t.items, 8); __rt.Wrote(&t.items, __rtSites_23293033+47); 
	__rt.Read(&t.m, __rtSites_23293033+48); __rt.Write(other, __rtSites_23293033+49); __rt.Read(t.m, __rtSites_23293033+50); maps.Copy(other, t.m)
	__rt.Read(&t.m, __rtSites_23293033+51); __rt.Read(t.m, __rtSites_23293033+52); _ = slices.Collect(maps.Keys(t.m))
	__rt.Read(&t.items, __rtSites_23293033+53); __rt.SortInts(t.items, __rtSites_23293033+4)
	__rt.Read(&t.items, __rtSites_23293033+54); __rt.SortSlice(t.items, func(i, j int) bool { return false }, __rtSites_23293033+5)
}

type shape interface{ Area() int }

func (t *table) Methods(sh shape, p *stamp) int {
	__rt.Read(p, __rtSites_23293033+55); f := p.When                      // the method value copies *p
	__rt.Read(p, __rtSites_23293033+56); n := p.When()                    // so does the call
	__rt.Read(&t.stamp, __rtSites_23293033+57); n += t.When()                    // promoted from stamp: copies t.stamp
	__rt.Read(&t.stamp, __rtSites_23293033+58); n += t.stamp.When()              // the same
	__rt.Read(&t.since, __rtSites_23293033+59); if t.since.Before(time.Time{}) { // a value: reading t.since copies it
		n++
	}
	__rt.ReadRecv(sh, "Area", __rtSites_23293033+60); return f() + n + sh.Area() // rt.ReadRecv: a pointer in sh gets its value copied
}

func Describe(err error) string {
	__rt.ReadRecv(err, "Error", __rtSites_23293033+61); return err.Error() // error is predeclared: its method has no package
}

func Buffers(b *bytes.Buffer, sb *strings.Builder) string {
	__rt.Update(b, __rtSites_23293033+62); b.WriteString("x")
	__rt.Read(b, __rtSites_23293033+64); sb.WriteString(func(__rtV4 string) string { __rt.Update(sb, __rtSites_23293033+63); return __rtV4 }(b.String()))
	var local bytes.Buffer
	__rt.Update(&local, __rtSites_23293033+65); local.WriteString("not shared")
	__rt.Read(sb, __rtSites_23293033+66); __rt.Read(&local, __rtSites_23293033+67); return sb.String() + local.String()
}

func Command(out *bytes.Buffer) error {
	cmd := exec.Command("true")
	__rt.Write(&cmd.Stdout, __rtSites_23293033+68); cmd.Stdout = out
	if err := __rt.CmdStart(cmd, __rtSites_23293033+6); err != nil {
		return err
	}
	if err := __rt.CmdWait(cmd, __rtSites_23293033+7); err != nil {
		return err
	}
	_, err := __rt.CmdOutput(exec.Command("true"), __rtSites_23293033+8)
	return err
}

func Generic[S ~[]E, E any](s S, p *[0]E) (n int) {
	for _, v := range __rt.RangeSlice(s, __rtSites_23293033+9) { // rt.RangeSlice infers S
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
	__rt.Read(p, __rtSites_23293033+69); defer p.When()          // the receiver is copied here
	defer sh.Area()         // the method copies it when it runs
	defer b.WriteString("") // writes the buffer when it runs
	defer __rt.SlicesSort[[]int, int](s, __rtSites_23293033+10)    // sorts when it runs
	defer clear(s)          // clears when it runs
	__rt.Read(b, __rtSites_23293033+70); { __rtArg1, __rtArg2 := b.WriteString, b.String(); __rt.Go(func() { __rtArg1(__rtArg2) }, __rtSites_23293033+11) }
}

var __rtSites_23293033 = __rt.RegisterFile("testdata/memforms.go", "v*t.m\nv*t.items\nv*t.arr[i]\n\n\n\n\n\n\nv*s\n\n\nv*t.m\nv*t.items\nv*t.items\nv*t.arr\nv*t.m\nv*t.m\nv*t.items\nv*t.items\nv*t.m\nv*t.m\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*src\nv*t.items\nv*t.items[:1]\nv*t.items[2:]\nv*t.items\nv*t.items\nv*src\nv*t.items\nv>t.items\tv<src\nv*t.name\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.items\nv*t.m\nv*other\nv*t.m\nv*t.m\nv*t.m\nv*t.items\nv*t.items\nv*p\nv*p\nv*t\nv*t.stamp\nv*t.since\nv*sh\nv*err\nv*b\nv*sb\nv*b\nv*local\nv*sb\nv*local\nv*cmd.Stdout\nv*p\nv*b", 32, 2, 35, 2, 38, 2, 71, 2, 78, 2, 79, 2, 110, 12, 113, 12, 116, 12, 121, 2, 138, 8, 140, 2, 32, 20, 35, 20, 41, 17, 50, 20, 53, 30, 53, 30, 57, 8, 57, 2, 58, 8, 58, 8, 59, 19, 59, 12, 60, 19, 60, 12, 60, 12, 61, 19, 61, 12, 61, 12, 62, 12, 62, 19, 63, 6, 65, 7, 65, 2, 66, 14, 67, 10, 71, 14, 72, 19, 72, 6, 73, 19, 73, 6, 74, 26, 74, 12, 74, 2, 75, 24, 75, 12, 75, 2, 76, 19, 76, 2, 76, 2, 77, 31, 77, 21, 78, 12, 79, 13, 85, 9, 86, 9, 87, 9, 88, 7, 89, 5, 92, 22, 96, 13, 100, 4, 101, 5, 101, 19, 103, 8, 104, 12, 104, 29, 109, 2, 135, 10, 140, 21)
