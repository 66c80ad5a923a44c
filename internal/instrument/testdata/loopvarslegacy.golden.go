//line testdata/loopvarslegacy.go:1
//go:build go1.21

// Before Go 1.22 a loop's variables are shared by all its iterations.
package loopvarslegacy; import __rt "interleave.dev/rt"

import "sync"

func Capture(q chan int) {
	var wg sync.WaitGroup
	for i := 0; func() bool { __rt.Read(&i, __rtSites_25ebe62a+18); return true }() && (i < 3); i++ { // the post statement writes the one i
		__rt.WGAdd(&wg, 1, __rtSites_25ebe62a+0)
		__rt.Go(func() { defer __rt.WGDone(&wg, __rtSites_25ebe62a+2); __rt.Read(&i, __rtSites_25ebe62a+20); __rt.Send[int](q, i, __rtSites_25ebe62a+3) }, __rtSites_25ebe62a+1)
	; __rt.Update(&i, __rtSites_25ebe62a+19); }
	__rt.WGWait(&wg, __rtSites_25ebe62a+4)
}

// Every iteration writes the range variables, which the goroutines read.
func Ranges(xs []int, arr [2]string, m map[string]int, s string, c chan int, done chan bool) {
	for __rtK5, v := range xs { __rt.Read(&xs[__rtK5], __rtSites_25ebe62a+21); __rt.Wrote(&v, __rtSites_25ebe62a+22); 
		__rt.Go(func() { __rt.Read(&v, __rtSites_25ebe62a+23); _ = v; __rt.Send[bool](done, true, __rtSites_25ebe62a+6) }, __rtSites_25ebe62a+5)
	}
	for i, v := range arr { __rt.Wrote(&i, __rtSites_25ebe62a+24); __rt.Wrote(&v, __rtSites_25ebe62a+25); 
		__rt.Go(func() { __rt.Read(&i, __rtSites_25ebe62a+26); __rt.Read(&v, __rtSites_25ebe62a+27); _, _ = i, v; __rt.Send[bool](done, true, __rtSites_25ebe62a+8) }, __rtSites_25ebe62a+7)
	}
	for __rtIt1, k, v := __rt.RangeMapIter(m, __rtSites_25ebe62a+9); __rtIt1.Next(); { k, v = __rtIt1.Entry(); __rt.Wrote(&k, __rtSites_25ebe62a+28); __rt.Wrote(&v, __rtSites_25ebe62a+29); 
		__rt.Go(func() { __rt.Read(&k, __rtSites_25ebe62a+30); __rt.Read(&v, __rtSites_25ebe62a+31); _, _ = k, v; __rt.Send[bool](done, true, __rtSites_25ebe62a+11) }, __rtSites_25ebe62a+10)
	}
	for i, r := range s { __rt.Wrote(&i, __rtSites_25ebe62a+32); __rt.Wrote(&r, __rtSites_25ebe62a+33); 
		__rt.Go(func() { __rt.Read(&i, __rtSites_25ebe62a+34); __rt.Read(&r, __rtSites_25ebe62a+35); _, _ = i, r; __rt.Send[bool](done, true, __rtSites_25ebe62a+13) }, __rtSites_25ebe62a+12)
	}
	for __rtRecv4, __rtCh2, v := __rt.Recv2[int], c, *new(int); ; { var __rtOk3 bool; v, __rtOk3 = __rtRecv4(__rtCh2, __rtSites_25ebe62a+15); if !__rtOk3 { break }; { __rt.Wrote(&v, __rtSites_25ebe62a+36); 
		__rt.Go(func() { __rt.Read(&v, __rtSites_25ebe62a+37); _ = v; __rt.Send[bool](done, true, __rtSites_25ebe62a+17) }, __rtSites_25ebe62a+16)
	}}
	for i := range xs { // i is not captured: not shared
		_ = i
	}
}

var __rtSites_25ebe62a = __rt.RegisterFile("testdata/loopvarslegacy.go", "w*wg\n\nw*wg\nc*q\nw*wg\n\nc*done\n\nc*done\nv*m\n\nc*done\n\nc*done\nc*c\nc*c\n\nc*done\nv*i\nv*i\nv*i\nv*xs\nv*v\nv*v\nv*i\nv*v\nv*i\nv*v\nv*k\nv*v\nv*k\nv*v\nv*i\nv*r\nv*i\nv*r\nv*v\nv*v", 11, 3, 12, 3, 12, 21, 12, 34, 14, 2, 20, 3, 20, 27, 23, 3, 23, 33, 25, 2, 26, 3, 26, 33, 29, 3, 29, 33, 31, 2, 31, 2, 32, 3, 32, 27, 10, 14, 10, 21, 12, 37, 19, 2, 19, 9, 20, 19, 22, 6, 22, 9, 23, 22, 23, 25, 25, 6, 25, 9, 26, 22, 26, 25, 28, 6, 28, 9, 29, 22, 29, 25, 31, 6, 32, 19)
