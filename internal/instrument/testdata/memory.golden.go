//line testdata/memory.go:1
package memory; import __rt "interleave.dev/rt"

import "fmt"

var global int

var table = map[string]int{}

type node struct {
	val  int
	next *node
	arr  [4]int
	tags []string
}

func index() int { return 0 }

func Globals() {
	__rt.Update(&global, __rtSites_ed65bafe+5); global++
	__rt.Update(&global, __rtSites_ed65bafe+6); global = global + 1
	__rt.Read(&global, __rtSites_ed65bafe+7); x := global
	__rt.Read(&table, __rtSites_ed65bafe+8); __rt.Write(table, __rtSites_ed65bafe+9); table["a"] = x
	__rt.Read(&table, __rtSites_ed65bafe+10); __rt.Write(table, __rtSites_ed65bafe+11); delete(table, "a")
	__rt.Read(&table, __rtSites_ed65bafe+12); __rt.Read(table, __rtSites_ed65bafe+13); if v, ok := table["b"]; ok {
		fmt.Println(v)
	}
	__rt.Read(&table, __rtSites_ed65bafe+14); for __rtIt1, k, v := __rt.RangeMapIter(table, __rtSites_ed65bafe+0); __rtIt1.Next(); { k, v = __rtIt1.Entry();
		fmt.Println(k, v)
	}
}

func Pointers(n *node, s []int, arr [4]int, m map[int]int) int {
	__rt.Write(&n.val, __rtSites_ed65bafe+15); n.val = 1
	__rt.Read(&n.val, __rtSites_ed65bafe+16); __rt.Read(&n.next, __rtSites_ed65bafe+17); __rt.Write(&n.next.val, __rtSites_ed65bafe+18); n.next.val = n.val
	__rt.Write(&n.arr[2], __rtSites_ed65bafe+19); n.arr[2] = 3
	__rt.Read(&s[0], __rtSites_ed65bafe+20); __rt.Write(&s[1], __rtSites_ed65bafe+21); s[1] = s[0]
	__rt.Write(&arr[1], __rtSites_ed65bafe+22); arr[1] = 2 // shared: its address is taken below
	p := &arr
	var local [2]int
	local[0] = 1 // purely local
	__rt.Write(&p[2], __rtSites_ed65bafe+23); p[2] = 1
	__rt.Write(p, __rtSites_ed65bafe+24); *p = [4]int{}
	__rt.Update(m, __rtSites_ed65bafe+25); m[1] = m[2]
	__rt.Update(&n.tags, __rtSites_ed65bafe+26); __rt.Append(n.tags, 1, __rtSites_ed65bafe+27); n.tags = append(n.tags, "x")
	if n != nil && func() bool { __rt.Read(&n.next, __rtSites_ed65bafe+31); __rt.Read(&n.next.val, __rtSites_ed65bafe+32); return true }() && (n.next.val > 0) { // the right operand of && is instrumented where it is evaluated
		return 1
	}
	s[func(__rtV2 int) int { __rt.Write(&s[__rtV2], __rtSites_ed65bafe+28); return __rtV2 }(index())] = 2                // index with a call: evaluated once, by a function reporting the access
	for i := 0; i < len(s); i++ { // the loop header is not instrumented
		__rt.Write(&s[i], __rtSites_ed65bafe+33); s[i] = i
	}
	__rt.Read(&n.val, __rtSites_ed65bafe+29); switch n.val {
	case func() int { __rt.Read(&s[0], __rtSites_ed65bafe+34); return s[0] }():
	}
	__rt.Read(&n.val, __rtSites_ed65bafe+30); return n.val
}

func Captured() int {
	counter := 0
	fixed := 10 // captured but never assigned again: not shared
	done := __rt.MakeChan[bool](0, __rtSites_ed65bafe+1)
	__rt.Go(func() {
		__rt.Update(&counter, __rtSites_ed65bafe+37); counter += fixed
		__rt.Send[bool](done, true, __rtSites_ed65bafe+3)
	}, __rtSites_ed65bafe+2)
	__rt.Recv[bool](done, __rtSites_ed65bafe+4)
	__rt.Update(&counter, __rtSites_ed65bafe+35); counter++
	__rt.Read(&counter, __rtSites_ed65bafe+36); return counter
}

var values []int

func Labeled() {
	total := 0
__rt.Read(&values, __rtSites_ed65bafe+38); loop:
	for _, x := range values {
		if x < 0 {
			break loop
		}
		total += x
	}
	fmt.Println(total)
}

func Scope(n *node) {
	__rt.Read(&n.next, __rtSites_ed65bafe+39); if m := n.next; func() bool { __rt.Read(&m.val, __rtSites_ed65bafe+40); return true }() && (m.val > 0) { // m is declared by the statement: only n.next is hoisted
		__rt.Read(&m.val, __rtSites_ed65bafe+41); fmt.Println(m.val)
	}
}

type holder struct{ p *node }

func MapElements(m map[string]node, hm map[string]holder) int {
	__rt.Read(hm, __rtSites_ed65bafe+42); __rt.Write(&hm["a"].p.val, __rtSites_ed65bafe+43); hm["a"].p.val = 1 // writes through the pointer read from the map
	__rt.Read(m, __rtSites_ed65bafe+44); return m["b"].val // reads the map
}

var stop bool

func Conditions(n *node, xs []int) {
	for func() bool { __rt.Read(&stop, __rtSites_ed65bafe+46); return true }() && (!stop) { // a busy wait on a shared flag: read at every evaluation
	}
	for p := n; p != nil && func() bool { __rt.Read(&p.val, __rtSites_ed65bafe+47); return true }() && (p.val > 0); p = p.next {
	; __rt.Read(&p.next, __rtSites_ed65bafe+48); }
	for i := 0; i < len(xs) && func() bool { __rt.Read(&xs[i], __rtSites_ed65bafe+49); return true }() && (xs[i] > 0); i++ {
	}
	__rt.Read(&n.val, __rtSites_ed65bafe+45); if n.val > 0 {
	} else if func() bool { __rt.Read(&n.next, __rtSites_ed65bafe+50); __rt.Read(&n.next.val, __rtSites_ed65bafe+51); return true }() && (n.next.val > 0) {
	} else { __rt.Read(&n.val, __rtSites_ed65bafe+52); if v := n.val; v > 1 && func() bool { __rt.Read(&n.next, __rtSites_ed65bafe+53); return true }() && (n.next != nil) {
	} }
}

func Switch(n *node) string {
	switch {
	case func() bool { __rt.Read(&n.val, __rtSites_ed65bafe+54); return true }() && (n.val > 0):
		return "positive"
	case func() bool { __rt.Read(&n.next, __rtSites_ed65bafe+55); return true }() && (n.next != nil && func() bool { __rt.Read(&n.next, __rtSites_ed65bafe+56); __rt.Read(&n.next.val, __rtSites_ed65bafe+57); return true }() && (n.next.val > 0)):
		return "next positive"
	}
	return ""
}

func Posts(head *node, xs []int) {
	for p := head; p != nil; p = p.next { // the post reads p.next
		__rt.Read(&p.val, __rtSites_ed65bafe+60); if p.val < 0 {
			__rt.Read(&p.next, __rtSites_ed65bafe+59); continue
		}
		for q := p; q != nil; q = q.next {
		; __rt.Read(&q.next, __rtSites_ed65bafe+61); }
	; __rt.Read(&p.next, __rtSites_ed65bafe+58); }
	for i := 0; i < len(xs); xs[i]++ { // the post writes xs[i]
		i++
	; __rt.Update(&xs[i], __rtSites_ed65bafe+62); }
	for p := head; p != nil; p = p.next {
		p := 1 // shadows p at the end of the body: the post is left alone
		_ = p
	}
}

func PostAfterContinue(head *node) {
	for p := head; p != nil; p = p.next {
		__rt.Read(&p.val, __rtSites_ed65bafe+64); if p.val > 0 {
			__rt.Read(&p.val, __rtSites_ed65bafe+65); fmt.Println(p.val)
		}
		__rt.Read(&p.next, __rtSites_ed65bafe+63); continue // nothing is inserted after it: it would be unreachable
	}
}

func Tagged(n *node, limit int) string {
	switch v := limit; func() int { __rt.Read(&n.val, __rtSites_ed65bafe+66); return n.val }() {
	case func() int { __rt.Read(&n.next, __rtSites_ed65bafe+67); __rt.Read(&n.next.val, __rtSites_ed65bafe+68); return n.next.val }():
		return "same as next"
	case v, 0:
		return "limit or zero"
	}
	return ""
}

func ElseIfInit(n *node) int {
	__rt.Read(&n.val, __rtSites_ed65bafe+69); if n.val > 0 {
		return 1
	} else { __rt.Read(&n.next, __rtSites_ed65bafe+70); __rt.Read(&n.next.val, __rtSites_ed65bafe+71); if v := n.next.val; v > 0 {
		return v
	} else {
		return 0
	} }
}

var __rtSites_ed65bafe = __rt.RegisterFile("testdata/memory.go", "v*table\nc*done\n\nc*done\nc*done\nv*global\nv*global\nv*global\nv*table\nv*table[\"a\"]\nv*table\nv*table\nv*table\nv*table[\"b\"]\nv*table\nv*n.val\nv*n.val\nv*n.next\nv*n.next.val\nv*n.arr[2]\nv*s[0]\nv*s[1]\nv*arr[1]\nv*p[2]\nv**p\nv*m\nv*n.tags\nv*n.tags\nv*s[index()]\nv*n.val\nv*n.val\nv*n.next\nv*n.next.val\nv*s[i]\nv*s[0]\nv*counter\nv*counter\nv*counter\nv*values\nv*n.next\nv*m.val\nv*m.val\nv*hm[\"a\"]\nv*hm[\"a\"].p.val\nv*m[\"b\"]\nv*n.val\nv*stop\nv*p.val\nv*p.next\nv*xs[i]\nv*n.next\nv*n.next.val\nv*n.val\nv*n.next\nv*n.val\nv*n.next\nv*n.next\nv*n.next.val\nv*p.next\nv*p.next\nv*p.val\nv*q.next\nv*xs[i]\nv*p.next\nv*p.val\nv*p.val\nv*n.val\nv*n.next\nv*n.next.val\nv*n.val\nv*n.next\nv*n.next.val", 27, 2, 61, 10, 62, 2, 64, 8, 66, 2, 19, 2, 20, 11, 21, 7, 22, 2, 22, 2, 23, 9, 23, 9, 24, 14, 24, 14, 27, 20, 33, 2, 34, 15, 34, 2, 34, 2, 35, 2, 36, 9, 36, 2, 37, 2, 41, 2, 42, 2, 43, 9, 44, 18, 44, 11, 48, 2, 52, 9, 55, 9, 45, 17, 45, 17, 50, 3, 53, 7, 67, 2, 68, 9, 63, 3, 76, 20, 86, 10, 86, 18, 87, 15, 94, 2, 94, 2, 95, 9, 107, 5, 101, 7, 103, 26, 103, 41, 105, 29, 108, 12, 108, 12, 109, 17, 109, 33, 115, 7, 117, 7, 117, 24, 117, 24, 124, 31, 124, 31, 125, 6, 128, 29, 131, 27, 141, 31, 142, 6, 143, 16, 150, 21, 151, 7, 151, 7, 160, 5, 162, 17, 162, 17)
