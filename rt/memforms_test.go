//go:build go1.23

package rt_test

import (
	"bytes"
	"os/exec"
	"testing"

	"interleave.dev/rt"
)

// The runtime side of the accesses that builtins, the standard library
// and ranges make for the program: each test pairs a program with the
// race Go's race detector reports with one that touches other memory, or
// the same memory in order.

// both runs f and g in two goroutines and waits for both.
func both(f, g func()) {
	done := rt.MakeChan[bool](2, 0)
	rt.Go(func() { f(); rt.Send(done, true, 0) }, 0)
	rt.Go(func() { g(); rt.Send(done, true, 0) }, 0)
	rt.Recv(done, 0)
	rt.Recv(done, 0)
}

func TestRangeSliceReadsEachElement(t *testing.T) {
	for _, c := range []struct {
		name  string
		write int // the element the other goroutine writes
		stop  int // the range stops after this index
		want  string
	}{
		{"every element", 2, 2, "data race"},
		{"an element the range does not reach", 2, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if k := raceOf(t, func() {
				s := []int{1, 2, 3}
				both(func() {
					for i, v := range rt.RangeSlice(s, 0) {
						_ = v
						if i == c.stop {
							break
						}
					}
				}, func() { rt.Write(&s[c.write], 0); s[c.write] = 4 })
			}); k != c.want {
				t.Errorf("got %q, want %q", k, c.want)
			}
		})
	}
}

func TestRangeMapReadsAtEveryStep(t *testing.T) {
	// The write lands between two steps of the range, or after the last
	// one: the iterator reads the map there too.
	for _, n := range []int{1, 3} {
		if k := raceOf(t, func() {
			m := map[int]int{}
			for i := 0; i < n; i++ {
				m[i] = i
			}
			both(func() {
				for range rt.RangeMap(m, 0) {
				}
			}, func() { rt.Write(m, 0); m[10] = 1 })
		}); k != "data race" {
			t.Errorf("%d entries: got %q, want a data race", n, k)
		}
		// The same with the iterator of files before Go 1.23.
		if k := raceOf(t, func() {
			m := map[int]int{}
			for i := 0; i < n; i++ {
				m[i] = i
			}
			both(func() {
				for it, _, _ := rt.RangeMapIter(m, 0); it.Next(); {
				}
			}, func() { rt.Write(m, 0); m[10] = 1 })
		}); k != "data race" {
			t.Errorf("MapIter, %d entries: got %q, want a data race", n, k)
		}
	}
}

func TestAppendWritesPastTheEndOrReadsToGrow(t *testing.T) {
	for _, c := range []struct {
		name   string
		cap    int // of the slice appended to, of length 1
		access func(s []int)
		want   string
	}{
		{"in place, the element written", 4, func(s []int) { rt.Read(&s[:2][1], 0) }, "data race"},
		{"in place, an element before", 4, func(s []int) { rt.Read(&s[0], 0) }, ""},
		{"growing, an element copied", 1, func(s []int) { rt.Write(&s[0], 0) }, "data race"},
		{"growing, read only", 1, func(s []int) { rt.Read(&s[0], 0) }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if k := raceOf(t, func() {
				s := make([]int, 1, c.cap)
				both(func() { rt.Append(s, 1, 0); _ = append(s, 1) }, func() { c.access(s) })
			}); k != c.want {
				t.Errorf("got %q, want %q", k, c.want)
			}
		})
	}
}

func TestCopyReadsSourceWritesDestination(t *testing.T) {
	for _, c := range []struct {
		name   string
		access func(dst, src []int)
		want   string
	}{
		{"source read, written", func(dst, src []int) { rt.Write(&src[1], 0) }, "data race"},
		{"source read, read", func(dst, src []int) { rt.Read(&src[1], 0) }, ""},
		{"destination written, read", func(dst, src []int) { rt.Read(&dst[1], 0) }, "data race"},
		{"past what is copied", func(dst, src []int) { rt.Write(&src[2], 0) }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if k := raceOf(t, func() {
				dst, src := make([]int, 2), []int{1, 2, 3}
				both(func() { rt.Copy(dst, src, 0) }, func() { c.access(dst, src) })
			}); k != c.want {
				t.Errorf("got %q, want %q", k, c.want)
			}
		})
	}
	if k := raceOf(t, func() {
		dst := make([]byte, 4)
		both(func() { rt.CopyString(dst, "ab", 0) }, func() { rt.Read(&dst[1], 0); rt.Read(&dst[3], 0) })
	}); k != "data race" {
		t.Errorf("copy from a string: got %q, want a data race", k)
	}
}

func TestSliceAccesses(t *testing.T) {
	for _, c := range []struct {
		name string
		f, g func(s []int)
		want string
	}{
		{"read, read", func(s []int) { rt.ReadSlice(s, 0) }, func(s []int) { rt.ReadSlice(s[2:], 0) }, ""},
		{"read, write", func(s []int) { rt.ReadSlice(s, 0) }, func(s []int) { rt.WriteSlice(s[2:], 0) }, "data race"},
		{"update, read", func(s []int) { rt.UpdateSlice(s[:2], 0) }, func(s []int) { rt.Read(&s[1], 0) }, "data race"},
		{"apart", func(s []int) { rt.WriteSlice(s[:2], 0) }, func(s []int) { rt.WriteSlice(s[2:], 0) }, ""},
		{"grow", func(s []int) { rt.Grow(s[:2:2], 1, 0) }, func(s []int) { rt.Write(&s[1], 0) }, "data race"},
		{"no growth", func(s []int) { rt.Grow(s[:2], 1, 0) }, func(s []int) { rt.Write(&s[1], 0) }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if k := raceOf(t, func() {
				s := []int{1, 2, 3, 4}
				both(func() { c.f(s) }, func() { c.g(s) })
			}); k != c.want {
				t.Errorf("got %q, want %q", k, c.want)
			}
		})
	}
}

type vec struct{ x, y int }

func (v vec) Len() int    { return v.x + v.y }
func (v *vec) Scale() int { return v.x }

type lener interface{ Len() int }

type scaler interface{ Scale() int }

func TestReadRecvCopiesThroughPointers(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      func(v *vec) any
		method string
		want   string
	}{
		{"value method of the pointed-to value", func(v *vec) any { return lener(v) }, "Len", "data race"},
		{"pointer method", func(v *vec) any { return scaler(v) }, "Scale", ""},
		{"a copy in the interface", func(v *vec) any { return lener(*v) }, "Len", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if k := raceOf(t, func() {
				v := &vec{}
				x := c.x(v)
				both(func() { rt.ReadRecv(x, c.method, 0) }, func() { rt.Write(&v.y, 0); v.y = 1 })
			}); k != c.want {
				t.Errorf("got %q, want %q", k, c.want)
			}
		})
	}
}

func TestCommandCopiesUntilWait(t *testing.T) {
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		name   string
		before bool // read the buffer before Wait
		want   string
	}{
		{"read before Wait", true, "data race"},
		{"read after Wait", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if k := raceOf(t, func() {
				var out bytes.Buffer
				cmd := exec.Command("true")
				cmd.Stdout = &out
				if err := rt.CmdStart(cmd, 0); err != nil {
					t.Error(err)
					return
				}
				if c.before {
					rt.Read(&out, 0)
				}
				if err := rt.CmdWait(cmd, 0); err != nil {
					t.Error(err)
				}
				rt.Read(&out, 0)
			}); k != c.want {
				t.Errorf("got %q, want %q", k, c.want)
			}
		})
	}
}

// A sort writes only the elements it moves: against a read of the first
// element of a slice already in order, no race (gocron's job list, sorted
// as it is appended to); against one the sort moves, the race Go reports.
func TestSortWritesOnlyWhatItMoves(t *testing.T) {
	sorts := map[string]func(s []int){
		"slices.Sort":           func(s []int) { rt.SlicesSort(s, 0) },
		"slices.SortStableFunc": func(s []int) { rt.SlicesSortStableFunc(s, func(a, b int) int { return a - b }, 0) },
		"sort.Slice":            func(s []int) { rt.SortSlice(s, func(i, j int) bool { return s[i] < s[j] }, 0) },
	}
	for name, sort := range sorts {
		for _, c := range []struct {
			name string
			s    []int
			want string
		}{
			{"in order", []int{1, 2, 3}, ""},
			{"the first element moves", []int{3, 1, 2}, "data race"},
		} {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				if k := raceOf(t, func() {
					s := append([]int(nil), c.s...)
					both(func() { sort(s) }, func() { rt.Read(&s[0], 0); _ = s[0] })
				}); k != c.want {
					t.Errorf("got %q, want %q", k, c.want)
				}
			})
		}
	}
}
