package race

// TreeClock is a vector clock kept as a tree, after Mathur, Pavlogiannis,
// Tunç and Viswanathan, "A Tree Clock Data Structure for Causal Orderings
// in Concurrent Executions", ASPLOS 2022, section 3: a join visits only
// the entries of the other clock that are newer (and the children it
// must look at to know where they stop), and a release into a lock that
// the releaser has acquired last visits only what changed since, where a
// plain vector clock costs the number of goroutines every time.
//
// Each node is a goroutine, its clock (the entry of the vector clock) and
// the clock its parent had when the node was attached to it. A node's
// subtree holds what its goroutine knew at the node's clock, so a join
// skips a subtree whose root is not newer than what the receiver knows,
// and the children of a node are kept most recently attached first, so a
// join stops looking at them at the first one attached when the node's
// clock was at most what the receiver knows of it.
//
// The clock of goroutine t is rooted at t (Init). The clock of a
// synchronization object (the zero TreeClock) is rooted at the goroutine
// it was last copied from (MonotoneCopy) until it joins a release that
// does not know all of it; from then on its top-level nodes hang from a
// root that is no goroutine, and a join from it looks at each of them.
//
// When a join would move many nodes (a goroutine that last synchronized
// many releases ago: see denseShare), the tree has nothing to skip and
// moving a node costs several times comparing an entry, so the clock
// merges entry by entry (as it does any clock under treeMin entries)
// and becomes flat: every node a child of the root
// attached at one clock (or a top-level node), without links, as cheap
// to join and copy as a plain vector clock, and as small. It gets its
// links back when a join into it moves few nodes again. A goroutine's
// clock starts flat, with its root alone.
//
// The structure is correct for the way the detector uses it: every
// goroutine increments its own entry right after each release of its
// clock (Release, Spawn), so that what a goroutine knew at a given clock
// never grows once others can know that clock. Goroutine ids start at 1.
type TreeClock struct {
	root  int32    // the goroutine at the root, 0: none (top-level nodes hang from links[0])
	owned bool     // the clock of the goroutine at its root (Init)
	flat  bool     // links are not kept: see TreeClock
	flatA uint32   // the attach clock of the nodes below the root of a flat clock
	clk   []uint32 // the entries, by goroutine id
	links []tcLink // the node of each goroutine, as long as clk unless c is flat
}

// tcLink places the node of one goroutine in the tree. A node with a
// zero clock is not in the tree and has zero links, except a goroutine's
// own root before its first Increment.
type tcLink struct {
	aclk   uint32 // the parent's clock when the node was attached
	parent int32  // -1: the root
	first  int32  // first child, the last attached (0: none)
	next   int32  // next sibling, attached earlier (0: none)
	prev   int32  // previous sibling (0: none, the node is its parent's first)
}

// Init makes c the clock of goroutine t, which knows nothing yet (its own
// entry is 0), keeping c's storage.
func (c *TreeClock) Init(t int32) {
	c.Reset()
	c.root, c.owned, c.flat = t, true, true
	c.cover(int(t) + 1)
}

// Reset makes c the zero clock of a synchronization object, keeping its
// storage (and flat if it was). It costs the number of nodes in the tree
// (of entries when c is flat).
func (c *TreeClock) Reset() {
	if c.flat {
		clear(c.clk)
		clear(c.links)
	} else {
		if c.root != 0 {
			c.clear(c.root)
		}
		if len(c.clk) > 0 {
			c.clear(0)
		}
	}
	c.clk, c.links = c.clk[:0], c.links[:0]
	c.root, c.owned, c.flatA = 0, false, 0
}

// clear zeroes the subtree rooted at top, the root or the links[0] that
// the top-level nodes hang from.
func (c *TreeClock) clear(top int32) {
	u := top
	for {
		n := &c.links[u]
		if n.first != 0 {
			u = n.first
			continue
		}
		c.clk[u] = 0
		if u == top {
			*n = tcLink{}
			return
		}
		p := n.parent // u is p's first child
		c.links[p].first = n.next
		*n = tcLink{}
		u = p
	}
}

// cover makes room for the goroutines below n, links included unless c
// is flat.
func (c *TreeClock) cover(n int) {
	if n > len(c.clk) {
		c.grow(n)
	}
}

// grow is cover's slow path.
func (c *TreeClock) grow(n int) {
	c.clk = lengthen(c.clk, n)
	if !c.flat {
		c.links = lengthen(c.links, n)
	}
}

// lengthen returns s at least n long. The elements past the length of
// the slices of a clock are zero: Reset zeroes what it cuts off.
func lengthen[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n <= cap(s) {
		return s[:n]
	}
	t := make([]T, n, max(n, 2*cap(s)))
	copy(t, s)
	return t
}

// Get returns the entry of goroutine t.
func (c *TreeClock) Get(t int32) uint32 {
	if int(t) < len(c.clk) {
		return c.clk[t]
	}
	return 0
}

// Increment adds one to the entry of the goroutine at the root of c, the
// goroutine whose clock c is.
func (c *TreeClock) Increment() {
	c.clk[c.root]++
}

// Join sets c to the pointwise maximum of c and o, visiting only the
// nodes of o that are newer than c and the children it must look at to
// find them, or every entry when many are newer.
func (c *TreeClock) Join(o *TreeClock) {
	if c == o || len(o.clk) == 0 {
		return
	}
	c.cover(len(o.clk))
	r := o.root
	if r != 0 && o.clk[r] <= c.clk[r] {
		return
	}
	if r != 0 && o.flat && o.flatA <= c.clk[r] {
		// c knows all that r knew when o's other nodes were attached.
		p, a := c.top()
		if !c.flat {
			c.place(r, p, a, 0)
		}
		c.clk[r] = o.clk[r]
		return
	}
	limit := moves(o)
	if o.flat {
		// No tree to walk: merge, which counts the newer entries, and
		// give c its links back when they were few, so that clocks that
		// exchange little get back to walking trees.
		if n := c.merge(o); limit > 0 && n <= limit {
			c.unflatten()
		}
		return
	}
	if limit == 0 || c.dense(o, limit) {
		c.merge(o)
		return
	}
	c.unflatten()
	if r != 0 {
		c.joinTop(o, r)
		return
	}
	for v := o.links[0].first; v != 0; v = o.links[v].next {
		if o.clk[v] > c.clk[v] {
			c.joinTop(o, v)
		}
	}
}

// top returns where the nodes that c learns from another clock go: under
// the root of a goroutine's clock, attached at its clock (the goroutine
// learns them now); at the top level of a synchronization object's clock,
// which no longer knows only what its root knew.
func (c *TreeClock) top() (p int32, a uint32) {
	if c.owned {
		if c.flat {
			c.flatA = c.clk[c.root]
		}
		return c.root, c.clk[c.root]
	}
	if z := c.root; z != 0 {
		c.root = 0
		if !c.flat {
			c.place(z, 0, 0, 0)
		}
	}
	return 0, 0
}

// joinTop joins the subtree of o rooted at u, which is newer than c, into
// c, whose top it goes to.
func (c *TreeClock) joinTop(o *TreeClock, u int32) {
	p, a := c.top()
	c.graft(o, u, p, a, 0, 0)
}

// denseShare: a join or a copy that would move more than one node in
// denseShare of the other clock's entries goes through all the entries
// instead. Moving a node touches its old and new neighbours, at random
// places, which costs several times comparing an entry in order.
const denseShare = 8

// treeMin is the number of entries below which a clock is merged and
// copied entry by entry whatever changed: walking a tree to find one
// newer entry costs about what comparing that many in order does. A
// variable, so that tests walk trees among few goroutines.
var treeMin = 64

// moves returns the most nodes that a join or a copy from o moves through
// the tree, and 0 when it merges or copies entry by entry.
func moves(o *TreeClock) int {
	if len(o.clk) < treeMin {
		return 0
	}
	return len(o.clk) / denseShare
}

// dense reports whether more than limit nodes of o, which is not flat,
// are newer than c. It walks o as graft would, stopping past the limit.
func (c *TreeClock) dense(o *TreeClock, limit int) bool {
	if o.root != 0 {
		return c.countNewer(o, o.root, 0, limit) > limit
	}
	n := 0
	for v := o.links[0].first; v != 0 && n <= limit; v = o.links[v].next {
		if o.clk[v] > c.clk[v] {
			n = c.countNewer(o, v, n, limit)
		}
	}
	return n > limit
}

// countNewer adds to n the nodes of the subtree of o rooted at top, which
// is newer than c, that graft would move, stopping past limit.
func (c *TreeClock) countNewer(o *TreeClock, top int32, n, limit int) int {
	n++
	u, v := top, o.links[top].first
	for n <= limit {
		if v != 0 {
			if o.clk[v] > c.clk[v] {
				n++
				u, v = v, o.links[v].first
				continue
			}
			if o.links[v].aclk > c.clk[u] {
				v = o.links[v].next
				continue
			}
		}
		if u == top {
			break
		}
		u, v = o.links[u].parent, o.links[u].next
	}
	return n
}

// merge sets each entry of c to the maximum of both and makes c flat:
// every node a child of the root of a goroutine's clock, attached at its
// clock (the goroutine knows them all now), or a top-level node of a
// synchronization object's clock. It returns the number of entries of o
// that were newer.
func (c *TreeClock) merge(o *TreeClock) int {
	n := 0
	cc := c.clk[:len(o.clk)]
	for i, k := range o.clk {
		if k > cc[i] {
			cc[i] = k
			n++
		}
	}
	c.flat = true
	if c.owned {
		c.flatA = c.clk[c.root]
	} else {
		c.root = 0
	}
	return n
}

// unflatten gives a flat c its links back: every node a child of the
// root attached at c.flatA, or a top-level node, in the order of ids.
func (c *TreeClock) unflatten() {
	if !c.flat {
		return
	}
	c.flat = false
	c.links = lengthen(c.links, len(c.clk))
	p, a := c.root, c.flatA
	if p == 0 {
		a = 0
	}
	c.links[0] = tcLink{}
	first, last := int32(0), int32(0)
	for i := 1; i < len(c.clk); i++ {
		v := int32(i)
		switch {
		case v == p:
			c.links[v] = tcLink{parent: -1}
		case c.clk[v] == 0:
			c.links[v] = tcLink{}
		default:
			c.links[v] = tcLink{aclk: a, parent: p, prev: last}
			if last != 0 {
				c.links[last].next = v
			} else {
				first = v
			}
			last = v
		}
	}
	c.links[p].first = first
}

// MonotoneCopy sets c, a synchronization object's clock, to the pointwise
// maximum of c and o, a goroutine's clock, as Join does. When o already
// knows all of c (a lock released by the goroutine that acquired it
// last), c becomes a copy of o rooted at o's goroutine, visiting only the
// nodes of o that changed since: the paper's monotone copy.
func (c *TreeClock) MonotoneCopy(o *TreeClock) {
	if c.owned || !o.owned {
		panic("race: MonotoneCopy into a goroutine's clock or from another's")
	}
	if c.root != 0 && c.clk[c.root] > o.Get(c.root) || c.root == 0 && !c.below(o) {
		c.Join(o)
		return
	}
	c.cover(len(o.clk))
	if limit := moves(o); o.flat || c.flat || limit == 0 || c.dense(o, limit) {
		c.copyOf(o)
		return
	}
	r, z := o.root, c.root
	c.root = r
	c.graft(o, r, -1, 0, 0, z)
	// Top-level nodes that o did not update stay below o's root: o
	// knows them now.
	a := c.clk[r]
	for c.links[0].first != 0 {
		c.place(c.links[0].first, r, a, 0)
	}
}

// copyOf makes c a copy of o, which knows all of c.
func (c *TreeClock) copyOf(o *TreeClock) {
	n := copy(c.clk, o.clk)
	if n < len(c.clk) {
		clear(c.clk[n:])
	}
	c.root, c.flat, c.flatA = o.root, o.flat, o.flatA
	if !o.flat {
		c.links = lengthen(c.links, len(c.clk))
		copy(c.links, o.links)
		clear(c.links[n:])
	}
}

// below reports whether c, which has no root, is at most o, o causally
// closed (every clock of the detector is): when o knows each top-level
// entry. (A copy of a goroutine's clock is at most o when o knows the
// root's entry.)
func (c *TreeClock) below(o *TreeClock) bool {
	switch {
	case c.flat:
		for i, k := range c.clk {
			if k > o.Get(int32(i)) {
				return false
			}
		}
	case len(c.clk) > 0:
		for v := c.links[0].first; v != 0; v = c.links[v].next {
			if c.clk[v] > o.Get(v) {
				return false
			}
		}
	}
	return true
}

// graft updates c from the subtree of o rooted at u: it attaches u to p
// (p -1: u becomes the root) with attach clock a, after p's child after
// (first when after is 0), then walks down o from u. A child of a node
// that is newer in o moves in c under that node, in the order it has in
// o, and its own children are looked at in turn; a child that is not
// newer is skipped with its subtree, and once a child was attached when
// its parent's clock was at most what c knew of the parent, so were the
// later ones: the walk leaves that node. The old root z of a copy that o
// does not update is attached where o has it. The walk needs no stack:
// it climbs back by the parent links of o, and c keeps each visited
// node's old clock, which the walk compares attach clocks to, until it
// leaves the node.
func (c *TreeClock) graft(o *TreeClock, u, p int32, a uint32, after, z int32) {
	top := u
	c.place(u, p, a, after)
	v, after := o.links[u].first, int32(0)
	for {
		if v != 0 {
			ov := &o.links[v]
			if o.clk[v] > c.clk[v] {
				c.place(v, u, ov.aclk, after)
				u, v, after = v, ov.first, 0
				continue
			}
			if v == z {
				c.place(v, u, ov.aclk, after)
				after = v
			}
			if ov.aclk > c.clk[u] {
				v = ov.next
				continue
			}
		}
		// Done with u.
		c.clk[u] = o.clk[u]
		if u == top {
			return
		}
		after, v, u = u, o.links[u].next, o.links[u].parent
	}
}

// place moves node v of c, in the tree or not, under p (-1: as the root)
// with attach clock a, after p's child after (first when after is 0).
func (c *TreeClock) place(v, p int32, a uint32, after int32) {
	n := &c.links[v]
	if c.clk[v] != 0 && n.parent >= 0 {
		if n.prev != 0 {
			c.links[n.prev].next = n.next
		} else {
			c.links[n.parent].first = n.next
		}
		if n.next != 0 {
			c.links[n.next].prev = n.prev
		}
	}
	n.parent, n.aclk = p, a
	switch {
	case p < 0:
		n.prev, n.next = 0, 0
	case after == 0:
		f := c.links[p].first
		n.prev, n.next = 0, f
		if f != 0 {
			c.links[f].prev = v
		}
		c.links[p].first = v
	default:
		x := c.links[after].next
		n.prev, n.next = after, x
		if x != 0 {
			c.links[x].prev = v
		}
		c.links[after].next = v
	}
}
