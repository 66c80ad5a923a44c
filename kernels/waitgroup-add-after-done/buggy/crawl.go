// Package buggy is the buggy variant of the waitgroup-add-after-done kernel.
package buggy

import (
	"sort"
	"sync"
)

// Node is a page with links to children.
type Node struct {
	Name     string
	Children []*Node
}

// Crawl visits every node reachable from root concurrently and returns the
// sorted names.
func Crawl(root *Node) []string {
	var (
		mu    sync.Mutex
		seen  []string
		wg    sync.WaitGroup
		visit func(n *Node)
	)
	visit = func(n *Node) {
		mu.Lock()
		seen = append(seen, n.Name)
		mu.Unlock()
		wg.Done() // BUG: done before the children are added: the count can hit zero
		for _, c := range n.Children {
			wg.Add(1)
			go visit(c)
		}
	}
	wg.Add(1)
	go visit(root)
	wg.Wait()
	mu.Lock()
	out := append([]string(nil), seen...)
	mu.Unlock()
	sort.Strings(out)
	return out
}
