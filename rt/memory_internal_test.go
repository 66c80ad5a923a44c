package rt

import (
	"testing"
	"unsafe"
)

func TestAccessSize(t *testing.T) {
	var s struct {
		a int32
		b [3]uint16
		c [5]int64
	}
	m := map[int]int{}
	for _, c := range []struct {
		addr any
		want uintptr
	}{
		{&s, unsafe.Sizeof(s)}, {&s.a, 4}, {&s.b[1], 2}, {&s.c, 40}, {m, 8}, {unsafe.Pointer(&s), 8},
	} {
		if got := accessSize(c.addr); got != c.want {
			t.Errorf("accessSize(%T) = %d, want %d", c.addr, got, c.want)
		}
	}
}

// BenchmarkAccessSize: what the size of an access adds to rt.Read and
// rt.Write; it must not allocate.
func BenchmarkAccessSize(b *testing.B) {
	var s struct{ a, b int64 }
	var n uintptr
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		n += accessSize(&s.b)
	}
	if n == 0 {
		b.Fatal("no size")
	}
}
