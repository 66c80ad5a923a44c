//line testdata/fuzzbranch_test.go:1
package fuzzbranch; import __rt "interleave.dev/rt"

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
	f.Fuzz(func(t *testing.T, i int, j int, s string, ok bool) { __rt.FuzzBody(t, func(t *testing.T) {
		x := 0
		done := __rt.MakeChan[bool](0, __rtSites_b995497f+0)
		__rt.Go(func() {
			__rt.Write(&x, __rtSites_b995497f+42); x = i + 1; __rt.SymWrite(&x, __rtSites_b995497f+90, "(+ i0 1)", nil)
			__rt.Read(&x, __rtSites_b995497f+43); if __rt.Branch(x > j, __rtSites_b995497f+91, "(> m0:i64 i1)", nil, &x) {
				__rt.Write(&g, __rtSites_b995497f+44); g = j; __rt.SymWrite(&g, __rtSites_b995497f+92, "i1", nil)
			}
			__rt.Send[bool](done, true, __rtSites_b995497f+2)
		}, __rtSites_b995497f+1)
		__rt.Recv[bool](done, __rtSites_b995497f+3)
		if __rt.Branch(i == 1, __rtSites_b995497f+93, "(== i0 1)", nil) {
			__rt.TLog(t, "i")
		}
		__rt.Read(&g, __rtSites_b995497f+6); if __rt.Branch(g == 1, __rtSites_b995497f+94, "(== m0:i64 1)", nil, &g) {
			__rt.Write(&g, __rtSites_b995497f+45); g = 5
		}
		__rt.Read(&g, __rtSites_b995497f+7); if __rt.Branch(g > i, __rtSites_b995497f+95, "(> m0:i64 i0)", nil, &g) {
		}
		if __rt.Branch(ok, __rtSites_b995497f+96, "i3", nil) {
		}
		if __rt.Branch(!ok && j > 0, __rtSites_b995497f+97, "(&& (! i3) (> i1 0))", nil) {
		}
		if n := i + 1; func() bool { __rt.Read(&g, __rtSites_b995497f+46); return true }() && (__rt.Branch(n > g, __rtSites_b995497f+98, "(> v0 m0:i64)", []int64{int64(n)}, &g)) {
		} else if func() bool { __rt.Read(&g, __rtSites_b995497f+47); return true }() && (__rt.Branch(j < g, __rtSites_b995497f+99, "(< i1 m0:i64)", nil, &g)) {
		} else if k := j; func() bool { __rt.Read(&x, __rtSites_b995497f+48); return true }() && (__rt.Branch(k == x, __rtSites_b995497f+100, "(== v0 m0:i64)", []int64{int64(k)}, &x)) {
		}
		for k := 0; __rt.Branch(k < i, __rtSites_b995497f+101, "(< v0 i0)", []int64{int64(k)}); k++ {
			__rt.Update(&g, __rtSites_b995497f+49); g++; __rt.SymWrite(&g, __rtSites_b995497f+102, "(+ m0:i64 1)", nil, &g)
		}
		for func() bool { __rt.Read(&g, __rtSites_b995497f+50); return true }() && (__rt.Branch(g < j, __rtSites_b995497f+103, "(< m0:i64 i1)", nil, &g)) {
			__rt.Update(&g, __rtSites_b995497f+51); g += j; __rt.SymWrite(&g, __rtSites_b995497f+104, "(+ m0:i64 i1)", nil, &g)
		}
		if __rt.Branch(i > 0 && func() bool { __rt.Read(&g, __rtSites_b995497f+52); return true }() && (g == 2), __rtSites_b995497f+105, "(&& (> i0 0) (== m0:i64 2))", nil, &g) {
		}
		if __rt.Branch(i > 0 || j > 0 && func() bool { __rt.Read(&flag, __rtSites_b995497f+53); return true }() && (flag), __rtSites_b995497f+106, "(|| (> i0 0) (&& (> i1 0) m0:b))", nil, &flag) {
		}
		__rt.Read(&st.n, __rtSites_b995497f+8); if __rt.Branch(st.n == int32(i), __rtSites_b995497f+107, "(== m0:i32 i0)", nil, &st.n) {
		}
		__rt.Read(&arr[1], __rtSites_b995497f+9); if __rt.Branch(arr[1] == 3 || i == 2, __rtSites_b995497f+108, "(|| (== m0:u16 3) (== i0 2))", nil, &arr[1]) {
		}
		for k := 0; k < 4; k++ {
			__rt.Read(&arr[k], __rtSites_b995497f+54); __rt.Untracked(__rtSites_b995497f+109); if arr[k] == 3 {
			}
		}
		__rt.Untracked(__rtSites_b995497f+110); if i/2 == 1 {
		}
		if __rt.Branch(len(s) > i, __rtSites_b995497f+111, "(> i2 i0)", nil) {
		}
		if __rt.Branch(s == "x", __rtSites_b995497f+112, "(&& (== i2 1) (== (@? i2 0 v0) 120))", []int64{__rt.At(s, 0)}) {
		}
		__rt.Read(&u, __rtSites_b995497f+10); __rt.Untracked(__rtSites_b995497f+113); if u == 1<<63 {
		}
		__rt.Read(&u, __rtSites_b995497f+11); if __rt.Branch(u == 1<<62, __rtSites_b995497f+114, "(== m0:u64 4611686018427387904)", nil, &u) {
		}
		__rt.Read(&x, __rtSites_b995497f+12); if __rt.Branch(x == i, __rtSites_b995497f+115, "(== m0:i64 i0)", nil, &x) {
		}
		if __rt.Branch(-i < 3 || +j > 1, __rtSites_b995497f+116, "(|| (< (neg i0) 3) (> i1 1))", nil) {
		}
		if __rt.Branch(i*j+1 != 0 && (i-j == 2), __rtSites_b995497f+117, "(&& (!= (+ (* i0 i1) 1) 0) (== (- i0 i1) 2))", nil) {
		}
		__rt.Read(&g8, __rtSites_b995497f+13); if __rt.Branch(int8(i) > g8, __rtSites_b995497f+118, "(> i0 m0:i8)", nil, &g8) {
		}
		if p := &st; func() bool { __rt.Read(&p.n, __rtSites_b995497f+55); return true }() && (__rt.Branch(p.n > 0, __rtSites_b995497f+119, "(> m0:i32 0)", nil, &p.n)) {
		}
		__rt.Untracked(__rtSites_b995497f+120); if p := &st; i > 0 || func() bool { __rt.Read(&p.n, __rtSites_b995497f+56); return true }() && (p.n > 0) {
		}
		__rt.Read(&flag, __rtSites_b995497f+14); if __rt.Branch(ok == flag, __rtSites_b995497f+121, "(== i3 m0:b)", nil, &flag) {
		}
		__rt.Read(&g, __rtSites_b995497f+15); __rt.Untracked(__rtSites_b995497f+122); if g == 1 || func() bool { __rt.Read(&g, __rtSites_b995497f+57); return true }() && (g == 2) {
		}
		__rt.Read(&sl, __rtSites_b995497f+16); __rt.Read(&sl[0], __rtSites_b995497f+17); if __rt.Branch(sl[0] == i, __rtSites_b995497f+123, "(== m0:i64 i0)", nil, &sl[0]) {
		}
		__rt.Untracked(__rtSites_b995497f+124); if i > 0 && func() bool { __rt.Read(&sl, __rtSites_b995497f+58); __rt.Read(&sl[0], __rtSites_b995497f+59); return true }() && (sl[0] == 1) {
		}
		__rt.Read(&m, __rtSites_b995497f+18); __rt.Read(m, __rtSites_b995497f+19); __rt.Untracked(__rtSites_b995497f+125); if m[i] == 1 {
		}
		__rt.Read(&fl, __rtSites_b995497f+20); __rt.Untracked(__rtSites_b995497f+126); if float64(i) > fl {
		}
		__rt.Read(&gp, __rtSites_b995497f+21); __rt.Untracked(__rtSites_b995497f+127); if gp != nil {
		}
		__rt.Read(&gp, __rtSites_b995497f+22); __rt.Read(gp, __rtSites_b995497f+23); if __rt.Branch(*gp == j, __rtSites_b995497f+128, "(== m0:i64 i1)", nil, gp) {
		}
		if __rt.Branch(i > 0 && func() bool { __rt.Read(&gp, __rtSites_b995497f+60); __rt.Read(gp, __rtSites_b995497f+61); return true }() && (*gp == j), __rtSites_b995497f+129, "(&& (> i0 0) (== m0:i64 i1))", nil, gp) {
		}
		nn := N(i)
		if nn == 3 {
		}
		if __rt.Branch(nn == N(j), __rtSites_b995497f+130, "(== v0 i1)", []int64{int64(nn)}) {
		}
		if __rt.Branch(i < 3 == ok, __rtSites_b995497f+131, "(== (< i0 3) i3)", nil) {
		}
		if true {
		}
		var b bool = i > 2
		if b {
		}
		__rt.Write(&g, __rtSites_b995497f+24); g = i + 1; __rt.SymWrite(&g, __rtSites_b995497f+77, "(+ i0 1)", nil)
		__rt.Write(&g, __rtSites_b995497f+25); g = 5
		__rt.Write(&g, __rtSites_b995497f+26); g = len(s); __rt.SymWrite(&g, __rtSites_b995497f+78, "i2", nil)
		__rt.Update(&g, __rtSites_b995497f+27); g /= 2
		__rt.Update(&g, __rtSites_b995497f+28); g = g * i; __rt.SymWrite(&g, __rtSites_b995497f+79, "(* m0:i64 i0)", nil, &g)
		__rt.Update(&g, __rtSites_b995497f+29); g -= 3; __rt.SymWrite(&g, __rtSites_b995497f+80, "(- m0:i64 3)", nil, &g)
		__rt.Update(&g, __rtSites_b995497f+30); g--; __rt.SymWrite(&g, __rtSites_b995497f+81, "(- m0:i64 1)", nil, &g)
		__rt.Write(&flag, __rtSites_b995497f+31); flag = !ok; __rt.SymWrite(&flag, __rtSites_b995497f+82, "(! i3)", nil)
		__rt.Write(&st.n, __rtSites_b995497f+32); st.n = int32(j); __rt.SymWrite(&st.n, __rtSites_b995497f+83, "i1", nil)
		__rt.Update(&arr[0], __rtSites_b995497f+33); arr[0] -= 1; __rt.SymWrite(&arr[0], __rtSites_b995497f+84, "(- m0:u16 1)", nil, &arr[0])
		__rt.Read(&gp, __rtSites_b995497f+34); __rt.Write(gp, __rtSites_b995497f+35); *gp = i; __rt.SymWrite(gp, __rtSites_b995497f+85, "i0", nil)
		__rt.Read(&sl, __rtSites_b995497f+36); __rt.Write(&sl[0], __rtSites_b995497f+37); sl[0] = j; __rt.SymWrite(&sl[0], __rtSites_b995497f+86, "i1", nil)
		__rt.Write(&u, __rtSites_b995497f+38); u = uint64(i); __rt.SymWrite(&u, __rtSites_b995497f+87, "i0", nil)
		__rt.Write(&g8, __rtSites_b995497f+39); g8 = int8(j); __rt.SymWrite(&g8, __rtSites_b995497f+88, "i1", nil)
	__rt.Write(&g, __rtSites_b995497f+40); L:
		g = j; __rt.SymWrite(&g, __rtSites_b995497f+89, "i1", nil)
		for k := 0; __rt.Branch(k < i, __rtSites_b995497f+132, "(< v0 i0)", []int64{int64(k)}); g++ {
			k++
			if k > 10 {
				goto L
			}
		; __rt.Update(&g, __rtSites_b995497f+62); }
		switch {
		case __rt.Branch(i > 2, __rtSites_b995497f+133, "(> i0 2)", nil):
			__rt.Write(&g, __rtSites_b995497f+63); g = j; __rt.SymWrite(&g, __rtSites_b995497f+134, "i1", nil)
		}
		if __rt.Branch(i > 0 &&
			func() bool { __rt.Read(&g, __rtSites_b995497f+64); return true }() && (g == 3), __rtSites_b995497f+135, "(&& (> i0 0) (== m0:i64 3))", nil, &g) {
		}
		for func() bool { __rt.Read(&g, __rtSites_b995497f+65); return true }() && (__rt.Branch(g < 3 && func() bool { __rt.Read(&flag, __rtSites_b995497f+66); return true }() && (flag), __rtSites_b995497f+136, "(&& (< m0:i64 3) m1:b)", nil, &g, &flag)) {
		}
		if g = double(i); func() bool { __rt.Wrote(&g, __rtSites_b995497f+41); return true }() && (func() bool { __rt.Read(&g, __rtSites_b995497f+67); return true }() && (__rt.Branch(g > j && func() bool { __rt.Read(&flag, __rtSites_b995497f+68); return true }() && (flag), __rtSites_b995497f+137, "(&& (> m0:i64 i1) m1:b)", nil, &g, &flag))) {
		}
		__rt.TRun(t, "sub", func(t *testing.T) {
			if __rt.Branch(j != i, __rtSites_b995497f+138, "(!= i1 i0)", nil) {
			}
		}, __rtSites_b995497f+4)
	}, &i, &j, &s, &ok)})
}

func double(n int) int { return 2 * n }

func FuzzOther(f *testing.F) {
	f.Fuzz(func(t *testing.T, __rtIn1 int, n uint8, a int, c int) { __rt.FuzzBody(t, func(t *testing.T) {
		a = 3
		if __rt.Branch(n > 2, __rtSites_b995497f+139, "(> i1 2)", nil) {
		}
		if a > 2 {
		}
		if __rt.Branch(a > int(n), __rtSites_b995497f+140, "(> v0 i1)", []int64{int64(a)}) {
		}
		q := &c
		__rt.Read(&c, __rtSites_b995497f+69); if __rt.Branch(c > 1, __rtSites_b995497f+141, "(> m0:i64 1)", nil, &c) {
			_ = q
		}
	}, &__rtIn1, &n, &a, &c)})
}

func TestUnchanged(t *testing.T) { __rt.Test(t, func(t *testing.T) {
	i := 3
	__rt.Go(func() { __rt.Write(&g, __rtSites_b995497f+71); g = 1 }, __rtSites_b995497f+5)
	__rt.Read(&g, __rtSites_b995497f+70); if g == i {
	}
	for func() bool { __rt.Read(&g, __rtSites_b995497f+72); return true }() && (g < i) {
		__rt.Update(&g, __rtSites_b995497f+73); g++
	}
})}

func unchanged(i int) {
	__rt.Read(&g, __rtSites_b995497f+74); if g == i {
	}
	__rt.Write(&g, __rtSites_b995497f+75); g = i
}

func FuzzDivide(f *testing.F) {
	f.Fuzz(func(t *testing.T, i, j int) { __rt.FuzzBody(t, func(t *testing.T) {
		__rt.Branch(j != 0, __rtSites_b995497f+142, "(!= i1 0)", nil); r := i / j
		__rt.Write(&g, __rtSites_b995497f+76); __rt.Branch((i - 1) != 0, __rtSites_b995497f+143, "(!= (- i0 1) 0)", nil); g = 10 % (i - 1)
		__rt.Untracked(__rtSites_b995497f+144); if double(j) > 1 {
		}
		_ = r
	}, &i, &j)})
}

var __rtSites_b995497f = __rt.RegisterFile("testdata/fuzzbranch_test.go", "c*done\n\nc*done\nc*done\n\n\nv*g\nv*g\nv*st.n\nv*arr[1]\nv*u\nv*u\nv*x\nv*g8\nv*flag\nv*g\nv*sl\nv*sl[0]\nv*m\nv*m[i]\nv*fl\nv*gp\nv*gp\nv**gp\nv*g\nv*g\nv*g\nv*g\nv*g\nv*g\nv*g\nv*flag\nv*st.n\nv*arr[0]\nv*gp\nv**gp\nv*sl\nv*sl[0]\nv*u\nv*g8\nv*g\nv*g\nv*x\nv*x\nv*g\nv*g\nv*g\nv*g\nv*x\nv*g\nv*g\nv*g\nv*g\nv*flag\nv*arr[k]\nv*p.n\nv*p.n\nv*g\nv*sl\nv*sl[0]\nv*gp\nv**gp\nv*g\nv*g\nv*g\nv*g\nv*flag\nv*g\nv*flag\nv*c\nv*g\nv*g\nv*g\nv*g\nv*g\nv*g\nv*g", 26, 11, 27, 3, 32, 9, 34, 3, 154, 3, 181, 2, 38, 6, 41, 6, 61, 6, 63, 6, 75, 6, 77, 6, 79, 6, 85, 16, 91, 12, 93, 6, 95, 6, 95, 6, 99, 6, 99, 6, 101, 19, 103, 6, 105, 7, 105, 6, 121, 3, 122, 3, 123, 3, 124, 3, 125, 7, 126, 3, 127, 3, 128, 3, 129, 3, 130, 3, 131, 4, 131, 3, 132, 3, 132, 3, 133, 3, 134, 3, 136, 3, 152, 6, 28, 4, 29, 7, 30, 5, 39, 4, 47, 22, 48, 17, 49, 26, 52, 4, 54, 7, 55, 4, 57, 15, 59, 24, 66, 7, 87, 16, 89, 25, 93, 16, 97, 15, 97, 15, 107, 16, 107, 15, 137, 22, 145, 4, 148, 4, 150, 7, 150, 16, 152, 21, 152, 30, 173, 6, 182, 5, 181, 14, 184, 6, 185, 3, 190, 5, 192, 2, 198, 3, 121, 3, 123, 3, 125, 3, 126, 3, 127, 3, 128, 3, 129, 3, 130, 3, 131, 3, 132, 3, 133, 3, 134, 3, 136, 3, 28, 4, 29, 7, 30, 5, 35, 6, 38, 6, 41, 6, 43, 6, 45, 6, 47, 18, 48, 13, 49, 21, 51, 15, 52, 4, 54, 7, 55, 4, 57, 6, 59, 6, 61, 6, 63, 6, 66, 7, 69, 6, 71, 6, 73, 6, 75, 6, 77, 6, 79, 6, 81, 6, 83, 6, 85, 6, 87, 16, 89, 16, 91, 6, 93, 6, 95, 6, 97, 6, 99, 6, 101, 6, 103, 6, 105, 6, 107, 6, 112, 6, 114, 6, 137, 15, 144, 8, 145, 4, 147, 6, 150, 7, 152, 21, 155, 7, 166, 6, 170, 6, 173, 6, 197, 10, 198, 10, 199, 6)
