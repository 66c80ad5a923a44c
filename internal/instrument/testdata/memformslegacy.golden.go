//line testdata/memformslegacy.go:1
// Before Go 1.23 a file cannot range over a function: a range over a map
// or over a slice with a value variable stays native, and reports what
// each iteration reads at the start of its body when the operand is a
// local variable the body does not assign.
package memformslegacy; import __rt "interleave.dev/rt"

type list struct{ items []int }

func Ranges(xs []int, m map[string]int, p *[3]int, l *list) (n int) {
	for __rtK2, x := range xs { __rt.Read(&xs[__rtK2], __rtSites_7a8bd872+2);
		n += x
	}
	for i, x := range xs { __rt.Read(&xs[i], __rtSites_7a8bd872+3);
		n += i * x
	}
	var i, x int
	for i, x = range xs { __rt.Read(&xs[i], __rtSites_7a8bd872+4);
		n += i * x
	}
	for _, x = range xs { // no index to name the element with
		n += x
	}
	for __rtIt1, k, _ := __rt.RangeMapIter(m, __rtSites_7a8bd872+0); __rtIt1.Next(); { k = __rtIt1.Key();
		n += len(k)
	}
	for __rtK3, v := range p { __rt.Read(&p[__rtK3], __rtSites_7a8bd872+5);
		n += v
	}
	__rt.Read(&l.items, __rtSites_7a8bd872+1); for _, v := range l.items { // not a local variable: the header only
		n += v
	}
	for _, v := range xs {
		xs = nil // assigned in the body
		n += v
	}
	return n
}

var __rtSites_7a8bd872 = __rt.RegisterFile("testdata/memformslegacy.go", "v*m\nv*l.items\nv*xs\nv*xs[i]\nv*xs[i]\nv*p", 23, 2, 29, 20, 10, 2, 13, 2, 17, 2, 26, 2)
