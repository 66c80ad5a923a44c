package fuzzbranch

import (
	"testing"
)

type N int

var (
	g    int
	g8   int8
	u    uint64
	flag bool
	st   struct{ n int32 }
	arr  [4]uint16
	gp   *int
	sl   []int
	m    map[int]int
	fl   float64
)

func FuzzBranch(f *testing.F) {
	f.Add(1, 2, "a", true)
	f.Fuzz(func(t *testing.T, i int, j int, s string, ok bool) {
		x := 0
		done := make(chan bool)
		go func() {
			x = i + 1
			if x > j {
				g = j
			}
			done <- true
		}()
		<-done
		if i == 1 {
			t.Log("i")
		}
		if g == 1 {
			g = 5
		}
		if g > i {
		}
		if ok {
		}
		if !ok && j > 0 {
		}
		if n := i + 1; n > g {
		} else if j < g {
		} else if k := j; k == x {
		}
		for k := 0; k < i; k++ {
			g++
		}
		for g < j {
			g += j
		}
		if i > 0 && g == 2 {
		}
		if i > 0 || j > 0 && flag {
		}
		if st.n == int32(i) {
		}
		if arr[1] == 3 || i == 2 {
		}
		for k := 0; k < 4; k++ {
			if arr[k] == 3 {
			}
		}
		if i/2 == 1 {
		}
		if len(s) > i {
		}
		if s == "x" {
		}
		if u == 1<<63 {
		}
		if u == 1<<62 {
		}
		if x == i {
		}
		if -i < 3 || +j > 1 {
		}
		if i*j+1 != 0 && (i-j == 2) {
		}
		if int8(i) > g8 {
		}
		if p := &st; p.n > 0 {
		}
		if p := &st; i > 0 || p.n > 0 {
		}
		if ok == flag {
		}
		if g == 1 || g == 2 {
		}
		if sl[0] == i {
		}
		if i > 0 && sl[0] == 1 {
		}
		if m[i] == 1 {
		}
		if float64(i) > fl {
		}
		if gp != nil {
		}
		if *gp == j {
		}
		if i > 0 && *gp == j {
		}
		nn := N(i)
		if nn == 3 {
		}
		if nn == N(j) {
		}
		if i < 3 == ok {
		}
		if true {
		}
		var b bool = i > 2
		if b {
		}
		g = i + 1
		g = 5
		g = len(s)
		g /= 2
		g = g * i
		g -= 3
		g--
		flag = !ok
		st.n = int32(j)
		arr[0] -= 1
		*gp = i
		sl[0] = j
		u = uint64(i)
		g8 = int8(j)
	L:
		g = j
		for k := 0; k < i; g++ {
			k++
			if k > 10 {
				goto L
			}
		}
		switch {
		case i > 2:
			g = j
		}
		if i > 0 &&
			g == 3 {
		}
		for g < 3 && flag {
		}
		if g = double(i); g > j && flag {
		}
		t.Run("sub", func(t *testing.T) {
			if j != i {
			}
		})
	})
}

func double(n int) int { return 2 * n }

func FuzzOther(f *testing.F) {
	f.Fuzz(func(t *testing.T, _ int, n uint8, a int, c int) {
		a = 3
		if n > 2 {
		}
		if a > 2 {
		}
		if a > int(n) {
		}
		q := &c
		if c > 1 {
			_ = q
		}
	})
}

func TestUnchanged(t *testing.T) {
	i := 3
	go func() { g = 1 }()
	if g == i {
	}
	for g < i {
		g++
	}
}

func unchanged(i int) {
	if g == i {
	}
	g = i
}

func FuzzDivide(f *testing.F) {
	f.Fuzz(func(t *testing.T, i, j int) {
		r := i / j
		g = 10 % (i - 1)
		if double(j) > 1 {
		}
		_ = r
	})
}
