// Conditions whose accesses are reported where they are evaluated: loop
// conditions, short-circuit operands, else-if chains and tagless switches
// behave as before (nil checks still guard dereferences).
package main

import (
	"fmt"
	"sync"
)

type node struct {
	val  int
	next *node
}

var done bool

func classify(n *node) string {
	switch {
	case n == nil:
		return "nil"
	case n.next != nil && n.next.val > n.val:
		return "rising"
	case n.val > 0:
		return "positive"
	}
	return "other"
}

func main() {
	var head *node
	for i := 5; i > 0; i-- {
		head = &node{val: i, next: head}
	}
	sum := 0
	for p := head; p != nil && p.val < 4; p = p.next {
		sum += p.val
	}
	fmt.Println("sum", sum)

	var nilNode *node
	if nilNode != nil && nilNode.val > 0 {
		fmt.Println("unreachable")
	} else if head.next != nil && head.next.next.val == 3 {
		fmt.Println("third is 3")
	}
	if v := head.val; v > 0 || nilNode.val > 0 {
		fmt.Println("short-circuit or", v)
	}
	fmt.Println(classify(nil), classify(head), classify(&node{val: 2}), classify(&node{}))

	var mu sync.Mutex
	go func() {
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	spins := 0
	for {
		mu.Lock()
		d := done
		mu.Unlock()
		if d {
			break
		}
		spins++
	}
	fmt.Println("done", spins >= 0)
}
