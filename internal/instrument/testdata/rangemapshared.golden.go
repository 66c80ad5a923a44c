//line testdata/rangemapshared.go:1
//go:build go1.21

// Before Go 1.22 the variables of a range over a map are shared by all
// iterations, as those of the three-clause loop it becomes are: every
// iteration writes them.
package rangemapshared; import __rt "interleave.dev/rt"

func Capture(m map[string]int, done chan bool) (fs []func() string) {
	for __rtIt1, k, v := __rt.RangeMapIter(m, __rtSites_1915af4b+0); __rtIt1.Next(); { k, v = __rtIt1.Entry(); __rt.Wrote(&k, __rtSites_1915af4b+6); __rt.Wrote(&v, __rtSites_1915af4b+7); 
		__rt.Append(fs, 1, __rtSites_1915af4b+8); fs = append(fs, func() string { __rt.Read(&k, __rtSites_1915af4b+9); return k })
		__rt.Go(func() { __rt.Read(&v, __rtSites_1915af4b+10); _ = v; __rt.Send[bool](done, true, __rtSites_1915af4b+2) }, __rtSites_1915af4b+1)
		__rt.Recv[bool](done, __rtSites_1915af4b+3)
	}
	return fs
}

func Blank(m map[string]int) (n int) {
	for __rtIt2, _, v := __rt.RangeMapIter(m, __rtSites_1915af4b+4); __rtIt2.Next(); { _, v = __rtIt2.Entry();
		n += v
	}
	for __rtIt3, k, _ := __rt.RangeMapIter(m, __rtSites_1915af4b+5); __rtIt3.Next(); { k = __rtIt3.Key();
		n += len(k)
	}
	return n
}

var __rtSites_1915af4b = __rt.RegisterFile("testdata/rangemapshared.go", "v*m\n\nc*done\nc*done\nv*m\nv*m\nv*k\nv*v\nv*fs\nv*k\nv*v", 9, 2, 11, 3, 11, 27, 12, 3, 18, 2, 21, 2, 9, 6, 9, 9, 10, 8, 10, 42, 11, 19)
