package rt

import (
	"reflect"
	"unsafe"

	"interleave.dev/rt/internal/sched"
)

// Inside an exploration a channel's state lives in the scheduler's model;
// the real channel only gives it an identity (and is closed natively when
// the model closes it, so that uninstrumented code waiting on it wakes).
// Values in flight are kept in a typed slab per channel and the model moves
// slot numbers, so no operation allocates in the steady state.

type slab[T any] struct {
	vals []T
	free []int32
}

func (s *slab[T]) put(v T) int32 {
	if n := len(s.free); n > 0 {
		i := s.free[n-1]
		s.free = s.free[:n-1]
		s.vals[i] = v
		return i
	}
	s.vals = append(s.vals, v)
	return int32(len(s.vals) - 1)
}

// take returns the value in slot i (the zero value for -1) and frees it.
func (s *slab[T]) take(i int32) T {
	var zero T
	if i < 0 {
		return zero
	}
	v := s.vals[i]
	s.vals[i] = zero
	s.free = append(s.free, i)
	return v
}

// putBy is put on behalf of g: growing the storage is the tool's own
// allocation, which the program must not count (sched/alloc.go).
func (s *slab[T]) putBy(g *sched.G, v T) int32 {
	if len(s.free) == 0 && g.Growing(len(s.vals), cap(s.vals)) {
		g.ToolBegin()
		defer g.ToolEnd()
	}
	return s.put(v)
}

// takeBy is take on behalf of g (see putBy).
func (s *slab[T]) takeBy(g *sched.G, i int32) T {
	if i >= 0 && g.Growing(len(s.free), cap(s.free)) {
		g.ToolBegin()
		defer g.ToolEnd()
	}
	return s.take(i)
}

func (s *slab[T]) release(i int32) {
	if i >= 0 {
		s.take(i)
	}
}

type slotReleaser interface{ release(int32) }

func chanPtr[T any](c chan T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&c)) }

// model returns the model of channel p (nil for a nil channel) and its
// value slab.
func model[T any](g *sched.G, p unsafe.Pointer, capacity int) (*sched.ChanObj, *slab[T]) {
	o := g.Chan(p, capacity)
	if o == nil {
		return nil, nil
	}
	st := o.State()
	sl, _ := st.Slab.(*slab[T])
	if sl == nil {
		g.ToolBegin()
		defer g.ToolEnd()
		sl = &slab[T]{}
		if rs, ok := st.Slab.(*reflectSlab); ok {
			sl.adopt(rs) // first used through reflect (reflectchan.go)
			st.Slab = sl
		} else {
			st.Slab = sl
			adoptTicker(g, p, o, sl)
			adoptNative(o, reflect.ValueOf(*(*chan T)(unsafe.Pointer(&p))), sl)
		}
	}
	return o, sl
}

func sendPtr[T any](c chan<- T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&c)) }
func recvPtr[T any](c <-chan T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&c)) }

// MakeChan replaces make(chan T, size).
func MakeChan[T any](size int, s Site) chan T {
	c := make(chan T, size)
	if g := cur(); g != nil {
		o, _ := model[T](g, chanPtr(c), size)
		g.MakeChan(o, uint32(s))
	}
	return c
}

// Send replaces the statement c <- v.
func Send[T any](c chan<- T, v T, s Site) {
	g := cur()
	if g == nil {
		c <- v
		return
	}
	o, sl := model[T](g, sendPtr(c), cap(c))
	slot := int32(-1)
	if sl != nil {
		slot = sl.putBy(g, v)
	}
	g.Send(o, slot, uint32(s))
}

// Recv replaces the expression <-c.
func Recv[T any](c <-chan T, s Site) T {
	g := cur()
	if g == nil {
		return <-c
	}
	o, sl := model[T](g, recvPtr(c), cap(c))
	slot, _ := g.Recv(o, uint32(s))
	return sl.takeBy(g, slot)
}

// Recv2 replaces the comma-ok receive v, ok := <-c.
func Recv2[T any](c <-chan T, s Site) (T, bool) {
	g := cur()
	if g == nil {
		v, ok := <-c
		return v, ok
	}
	o, sl := model[T](g, recvPtr(c), cap(c))
	slot, ok := g.Recv(o, uint32(s))
	return sl.takeBy(g, slot), ok
}

// Close replaces close(c).
func Close[T any](c chan<- T, s Site) {
	if g := cur(); g != nil {
		o, _ := model[T](g, sendPtr(c), cap(c))
		g.Close(o, uint32(s))
	}
	close(c)
}

// Len replaces len(c) for a channel c of any direction. c must be a channel.
func Len(c any, s Site) int {
	v := reflect.ValueOf(c)
	g := cur()
	if g == nil {
		return v.Len()
	}
	if v.IsNil() {
		return g.Len(nil, uint32(s))
	}
	o, _ := reflectModel(g, v)
	return g.Len(o, uint32(s))
}

// A Select is one execution of a select statement. The instrumenter rewrites
//
//	select {
//	case v, ok := <-c1:
//		A
//	case c2 <- x:
//		B
//	default:
//		D
//	}
//
// into
//
//	{
//		_c1, _c2, _x := c1, c2, x // channel and value expressions, once, in source order
//		_sel := rt.SelectStart(site)
//		rt.SelectRecv[T1](_sel, _c1)
//		rt.SelectSend[T2](_sel, _c2, _x)
//		switch _sel.Do(true) { // true: the statement has a default case
//		case 0:
//			v, ok := rt.SelectValue[T1](_sel)
//			A
//		case 1:
//			B
//		default: // -1
//			D
//		}
//	}
//
// Cases are numbered from 0 in source order, the default case excluded.
// SelectValue must be called, if at all, before any other select statement
// runs in the same goroutine: inside an exploration each goroutine reuses
// one Select.
type Select struct {
	g     *sched.G
	site  Site
	cases []sched.SelectCase
	slabs []slotReleaser
	slot  int32
	ok    bool
	taken int

	native []reflect.SelectCase
	value  reflect.Value
}

// SelectStart begins a select statement.
func SelectStart(s Site) *Select {
	g := cur()
	if g == nil {
		return &Select{site: s}
	}
	p := g.RT()
	sel, _ := (*p).(*Select)
	if sel == nil {
		g.ToolBegin()
		sel = &Select{g: g}
		*p = sel
		g.ToolEnd()
	}
	sel.site = s
	sel.cases = sel.cases[:0]
	sel.slabs = sel.slabs[:0]
	return sel
}

// SelectRecv adds a receive case on c.
func SelectRecv[T any](sel *Select, c <-chan T) {
	if sel.g == nil {
		sel.native = append(sel.native, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)})
		return
	}
	o, sl := model[T](sel.g, recvPtr(c), cap(c))
	sel.add(sched.SelectCase{Ch: o, Slot: -1}, sl)
}

// add adds case c, whose channel's value storage is sl.
func (sel *Select) add(c sched.SelectCase, sl slotReleaser) {
	if sel.g.Growing(len(sel.cases), cap(sel.cases)) || sel.g.Growing(len(sel.slabs), cap(sel.slabs)) {
		sel.g.ToolBegin()
		defer sel.g.ToolEnd()
	}
	sel.cases = append(sel.cases, c)
	sel.slabs = append(sel.slabs, sl)
}

// SelectSend adds a send case of v on c.
func SelectSend[T any](sel *Select, c chan<- T, v T) {
	if sel.g == nil {
		sel.native = append(sel.native, reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(c), Send: reflect.ValueOf(&v).Elem()})
		return
	}
	o, sl := model[T](sel.g, sendPtr(c), cap(c))
	slot := int32(-1)
	if sl != nil {
		slot = sl.putBy(sel.g, v)
	}
	sel.add(sched.SelectCase{Ch: o, Send: true, Slot: slot}, sl)
}

// Do runs the select statement and returns the index of the case taken, or
// -1 when hasDefault is true and no case was ready.
func (sel *Select) Do(hasDefault bool) int {
	return sel.doOrdered(0, hasDefault)
}

// doOrdered is Do in which the first first cases, when ready, are taken
// before any other, the lowest index first, as a sequence of non-blocking
// receives on them before the select would; inside an exploration it is
// one scheduling point (sched.G.SelectOrdered). The models of the
// standard library's pipes use it.
func (sel *Select) doOrdered(first int, hasDefault bool) int {
	if sel.g == nil {
		for i := 0; i < first; i++ {
			if j, v, ok := reflect.Select([]reflect.SelectCase{sel.native[i], {Dir: reflect.SelectDefault}}); j == 0 {
				sel.value, sel.ok = v, ok
				return i
			}
		}
		return sel.doNative(hasDefault)
	}
	i, slot, ok := sel.g.SelectOrdered(sel.cases, first, hasDefault, uint32(sel.site))
	for j, c := range sel.cases {
		if c.Send && j != i && c.Ch != nil {
			sel.slabs[j].release(c.Slot)
		}
	}
	sel.taken, sel.slot, sel.ok = i, slot, ok
	return i
}

func (sel *Select) doNative(hasDefault bool) int {
	cases := sel.native
	if hasDefault {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	i, v, ok := reflect.Select(cases)
	if hasDefault && i == len(sel.native) {
		return -1
	}
	sel.value, sel.ok = v, ok
	return i
}

// SelectValue returns the value and the ok flag of the receive case taken by
// the last Do of sel.
func SelectValue[T any](sel *Select) (T, bool) {
	var zero T
	if sel.g == nil {
		if !sel.ok || !sel.value.IsValid() {
			return zero, sel.ok
		}
		v, _ := sel.value.Interface().(T)
		return v, true
	}
	sl, _ := sel.slabs[sel.taken].(*slab[T])
	if sl == nil {
		return zero, sel.ok
	}
	return sl.takeBy(sel.g, sel.slot), sel.ok
}
