package memory

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
	global++
	global = global + 1
	x := global
	table["a"] = x
	delete(table, "a")
	if v, ok := table["b"]; ok {
		fmt.Println(v)
	}
	for k, v := range table {
		fmt.Println(k, v)
	}
}

func Pointers(n *node, s []int, arr [4]int, m map[int]int) int {
	n.val = 1
	n.next.val = n.val
	n.arr[2] = 3
	s[1] = s[0]
	arr[1] = 2 // shared: its address is taken below
	p := &arr
	var local [2]int
	local[0] = 1 // purely local
	p[2] = 1
	*p = [4]int{}
	m[1] = m[2]
	n.tags = append(n.tags, "x")
	if n != nil && n.next.val > 0 { // the right operand of && is instrumented where it is evaluated
		return 1
	}
	s[index()] = 2                // index with a call: evaluated once, by a function reporting the access
	for i := 0; i < len(s); i++ { // the loop header is not instrumented
		s[i] = i
	}
	switch n.val {
	case s[0]:
	}
	return n.val
}

func Captured() int {
	counter := 0
	fixed := 10 // captured but never assigned again: not shared
	done := make(chan bool)
	go func() {
		counter += fixed
		done <- true
	}()
	<-done
	counter++
	return counter
}

var values []int

func Labeled() {
	total := 0
loop:
	for _, x := range values {
		if x < 0 {
			break loop
		}
		total += x
	}
	fmt.Println(total)
}

func Scope(n *node) {
	if m := n.next; m.val > 0 { // m is declared by the statement: only n.next is hoisted
		fmt.Println(m.val)
	}
}

type holder struct{ p *node }

func MapElements(m map[string]node, hm map[string]holder) int {
	hm["a"].p.val = 1 // writes through the pointer read from the map
	return m["b"].val // reads the map
}

var stop bool

func Conditions(n *node, xs []int) {
	for !stop { // a busy wait on a shared flag: read at every evaluation
	}
	for p := n; p != nil && p.val > 0; p = p.next {
	}
	for i := 0; i < len(xs) && xs[i] > 0; i++ {
	}
	if n.val > 0 {
	} else if n.next.val > 0 {
	} else if v := n.val; v > 1 && n.next != nil {
	}
}

func Switch(n *node) string {
	switch {
	case n.val > 0:
		return "positive"
	case n.next != nil && n.next.val > 0:
		return "next positive"
	}
	return ""
}

func Posts(head *node, xs []int) {
	for p := head; p != nil; p = p.next { // the post reads p.next
		if p.val < 0 {
			continue
		}
		for q := p; q != nil; q = q.next {
		}
	}
	for i := 0; i < len(xs); xs[i]++ { // the post writes xs[i]
		i++
	}
	for p := head; p != nil; p = p.next {
		p := 1 // shadows p at the end of the body: the post is left alone
		_ = p
	}
}

func PostAfterContinue(head *node) {
	for p := head; p != nil; p = p.next {
		if p.val > 0 {
			fmt.Println(p.val)
		}
		continue // nothing is inserted after it: it would be unreachable
	}
}

func Tagged(n *node, limit int) string {
	switch v := limit; n.val {
	case n.next.val:
		return "same as next"
	case v, 0:
		return "limit or zero"
	}
	return ""
}

func ElseIfInit(n *node) int {
	if n.val > 0 {
		return 1
	} else if v := n.next.val; v > 0 {
		return v
	} else {
		return 0
	}
}
