package rt

import (
	"bytes"
	"cmp"
	"reflect"
	"slices"
	"sort"
	"unsafe"
)

// Sorting. A sort of the standard library reads every element of the
// slice it is given, and writes an element only to move it: on a slice
// already in order it writes nothing, and Go's race detector, which sees
// the standard library's accesses, reports no write. These replacements
// report what the sort did: a read of every element before it, and after
// it a write of each run of elements whose bytes changed. An element the
// sort moved and put back, or swapped with an equal one, is written
// natively and not reported: the race detector would see a write where
// these report none (a race missed, never a race made up).

// SlicesSort replaces slices.Sort.
func SlicesSort[S ~[]E, E cmp.Ordered](x S, s Site) {
	sorted(unsafe.Pointer(unsafe.SliceData(x)), len(x), sizeOf[E](), s, func() { slices.Sort(x) })
}

// SlicesSortFunc replaces slices.SortFunc.
func SlicesSortFunc[S ~[]E, E any](x S, cmp func(a, b E) int, s Site) {
	sorted(unsafe.Pointer(unsafe.SliceData(x)), len(x), sizeOf[E](), s, func() { slices.SortFunc(x, cmp) })
}

// SlicesSortStableFunc replaces slices.SortStableFunc.
func SlicesSortStableFunc[S ~[]E, E any](x S, cmp func(a, b E) int, s Site) {
	sorted(unsafe.Pointer(unsafe.SliceData(x)), len(x), sizeOf[E](), s, func() { slices.SortStableFunc(x, cmp) })
}

// SortInts replaces sort.Ints.
func SortInts(x []int, s Site) { SlicesSort(x, s) }

// SortFloat64s replaces sort.Float64s.
func SortFloat64s(x []float64, s Site) { SlicesSort(x, s) }

// SortStrings replaces sort.Strings.
func SortStrings(x []string, s Site) { SlicesSort(x, s) }

// SortSlice replaces sort.Slice.
func SortSlice(x any, less func(i, j int) bool, s Site) {
	p, n, size := sliceOf(x)
	sorted(p, n, size, s, func() { sort.Slice(x, less) })
}

// SortSliceStable replaces sort.SliceStable.
func SortSliceStable(x any, less func(i, j int) bool, s Site) {
	p, n, size := sliceOf(x)
	sorted(p, n, size, s, func() { sort.SliceStable(x, less) })
}

func sizeOf[E any]() uintptr {
	var zero E
	return unsafe.Sizeof(zero)
}

// sliceOf returns the array, length and element size of the slice x
// holds, as sort.Slice sees it (which panics on anything else).
func sliceOf(x any) (unsafe.Pointer, int, uintptr) {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Slice {
		return nil, 0, 0
	}
	return v.UnsafePointer(), v.Len(), v.Type().Elem().Size()
}

// sorted runs sort, which sorts the n elements of size bytes at p, and
// reports what it did to their memory.
func sorted(p unsafe.Pointer, n int, size uintptr, site Site, sort func()) {
	g := cur()
	if g == nil || p == nil || n == 0 || size == 0 {
		sort()
		return
	}
	total := uintptr(n) * size
	g.Access(p, total, false, uint32(site))
	g.ToolBegin()
	before := bytes.Clone(unsafe.Slice((*byte)(p), total))
	g.ToolEnd()
	sort()
	after := unsafe.Slice((*byte)(p), total)
	changed := func(i int) bool {
		o := uintptr(i) * size
		return !bytes.Equal(before[o:o+size], after[o:o+size])
	}
	for i := 0; i < n; {
		if !changed(i) {
			i++
			continue
		}
		j := i + 1
		for j < n && changed(j) {
			j++
		}
		g.Wrote(unsafe.Add(p, uintptr(i)*size), uintptr(j-i)*size, uint32(site))
		i = j
	}
}
