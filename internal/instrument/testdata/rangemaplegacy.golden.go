//line testdata/rangemaplegacy.go:1
//go:build go1.22

// Before Go 1.23 a file cannot range over a function: a range over a map
// stays native.
package rangemaplegacy; import __rt "interleave.dev/rt"

func Sum(m map[string]int) int {
	sum := 0
	__rt.Read(m, __rtSites_3c4d0bad+0); for _, v := range m { __rt.Read(m, __rtSites_3c4d0bad+1);
		sum += v
	}
	return sum
}

var __rtSites_3c4d0bad = __rt.RegisterFile("testdata/rangemaplegacy.go", "v*m\nv*m", 9, 20, 9, 2)
