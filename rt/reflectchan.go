package rt

import (
	"reflect"
	"sync/atomic"
	"time"
	"unsafe"

	"interleave.dev/rt/internal/sched"
)

// Package reflect's channel operations on a channel the model governs
// must see the model's state (the values in flight live in a slab, not
// in the channel) and be operations of the model, like the statements
// they stand for. The instrumenter rewrites calls of reflect.Value's
// channel methods and of reflect.Select into the functions below; on any
// other kind of value, and outside an exploration, they call reflect.
//
// The slab of a channel is typed (slab[T]); a channel first used through
// reflect gets a reflectSlab, which the first typed operation turns into
// a slab[T] holding the same values in the same slots. Both give reflect
// access through valueSlab.

// valueSlab is a channel's value storage seen through reflect.
type valueSlab interface {
	slotReleaser
	// putValue stores v, which must be assignable to the element type
	// t, and returns its slot.
	putValue(v reflect.Value, t reflect.Type) int32
	// takeValue returns the value in slot i as a value of type t that
	// is not addressable, as reflect returns a received one (the zero
	// value for -1), and frees the slot.
	takeValue(i int32, t reflect.Type) reflect.Value
}

func (s *slab[T]) putValue(v reflect.Value, _ reflect.Type) int32 {
	var x T
	reflect.ValueOf(&x).Elem().Set(v)
	return s.put(x)
}

func (s *slab[T]) takeValue(i int32, t reflect.Type) reflect.Value {
	if i < 0 {
		return reflect.Zero(t)
	}
	x := s.take(i)
	return reflect.ValueOf(&x).Elem().Convert(t) // a copy, not addressable
}

// reflectSlab is the storage of a channel used through reflect before
// any typed operation.
type reflectSlab struct {
	vals []reflect.Value
	free []int32
}

func (s *reflectSlab) putValue(v reflect.Value, t reflect.Type) int32 {
	x := reflect.New(t).Elem()
	x.Set(v)
	x = x.Convert(t)
	if n := len(s.free); n > 0 {
		i := s.free[n-1]
		s.free = s.free[:n-1]
		s.vals[i] = x
		return i
	}
	s.vals = append(s.vals, x)
	return int32(len(s.vals) - 1)
}

func (s *reflectSlab) takeValue(i int32, t reflect.Type) reflect.Value {
	if i < 0 {
		return reflect.Zero(t)
	}
	v := s.vals[i]
	s.vals[i] = reflect.Value{}
	s.free = append(s.free, i)
	return v
}

func (s *reflectSlab) release(i int32) {
	if i >= 0 {
		s.vals[i] = reflect.Value{}
		s.free = append(s.free, i)
	}
}

// adopt moves the values of rs into s, each to the same slot.
func (s *slab[T]) adopt(rs *reflectSlab) {
	s.vals = make([]T, len(rs.vals))
	for i, v := range rs.vals {
		if v.IsValid() {
			reflect.ValueOf(&s.vals[i]).Elem().Set(v)
		}
	}
	s.free = append(s.free[:0], rs.free...)
}

// reflectModel returns the model of channel v (nil for a nil channel) and
// its value storage.
func reflectModel(g *sched.G, v reflect.Value) (*sched.ChanObj, valueSlab) {
	if v.IsNil() {
		return nil, nil
	}
	p := v.UnsafePointer()
	if v.Type().Elem() == timeType {
		// Perhaps a ticker's channel, made outside the exploration: the
		// typed model adopts it.
		model[time.Time](g, p, v.Cap())
	}
	o := g.Chan(p, v.Cap())
	return o, reflectAdopt(g, o, v)
}

var timeType = reflect.TypeOf(time.Time{})

// slabOf returns the value storage of channel o, creating a reflectSlab
// for a channel no typed operation has used yet.
func slabOf(o *sched.ChanObj) valueSlab {
	st := o.State()
	vs, _ := st.Slab.(valueSlab)
	if vs == nil {
		vs = &reflectSlab{}
		st.Slab = vs
	}
	return vs
}

// reflectAdopt is slabOf for channel v, first seen in the iteration: its
// storage made, its native state adopted.
func reflectAdopt(g *sched.G, o *sched.ChanObj, v reflect.Value) valueSlab {
	if o.State().Slab != nil {
		return slabOf(o)
	}
	g.ToolBegin()
	defer g.ToolEnd()
	vs := slabOf(o)
	adoptNative(o, v, vs)
	return vs
}

// modeled returns the current goroutine when v is a channel whose
// operations the model must perform: inside an exploration, and a value
// reflect lets the program use (one read through an unexported field
// makes reflect panic, as natively).
func modeled(v reflect.Value) *sched.G {
	if v.Kind() != reflect.Chan || !v.CanInterface() {
		return nil
	}
	return cur()
}

func mustDir(v reflect.Value, dir reflect.ChanDir, msg string) {
	if v.Type().ChanDir()&dir == 0 {
		panic(msg)
	}
}

// ReflectLen replaces the method call v.Len() of a reflect.Value.
func ReflectLen(v reflect.Value, s Site) int {
	g := cur()
	if g == nil || v.Kind() != reflect.Chan {
		return v.Len()
	}
	if v.IsNil() {
		return g.Len(nil, uint32(s))
	}
	o, _ := reflectModel(g, v)
	return g.Len(o, uint32(s))
}

// ReflectSend replaces the method call v.Send(x) of a reflect.Value.
func ReflectSend(v, x reflect.Value, s Site) {
	g := modeled(v)
	if g == nil {
		v.Send(x)
		return
	}
	mustDir(v, reflect.SendDir, "reflect: send on recv-only channel")
	o, sl := reflectModel(g, v)
	slot := int32(-1)
	if sl != nil {
		slot = sl.putValue(sendable(x, v.Type().Elem(), "reflect.Value.Send"), v.Type().Elem())
	}
	g.Send(o, slot, uint32(s))
}

// sendable returns x, checked as reflect checks a value to send.
func sendable(x reflect.Value, t reflect.Type, what string) reflect.Value {
	if !x.IsValid() || !x.CanInterface() || !x.Type().AssignableTo(t) {
		// reflect's own panic for the same mistake.
		reflect.New(t).Elem().Set(x)
		panic(what + ": value of type " + x.Type().String() + " is not assignable to type " + t.String())
	}
	return x
}

// ReflectTrySend replaces the method call v.TrySend(x) of a reflect.Value.
func ReflectTrySend(v, x reflect.Value, s Site) bool {
	g := modeled(v)
	if g == nil {
		return v.TrySend(x)
	}
	mustDir(v, reflect.SendDir, "reflect: send on recv-only channel")
	t := v.Type().Elem()
	x = sendable(x, t, "reflect.Value.Send")
	o, _ := reflectModel(g, v)
	sel := sched.SelectCase{Ch: o, Send: true, Slot: -1}
	if o != nil {
		sel.Slot = slabOf(o).putValue(x, t)
	}
	i, _, _ := g.Select([]sched.SelectCase{sel}, true, uint32(s))
	if i < 0 && o != nil {
		slabOf(o).release(sel.Slot)
	}
	return i == 0
}

// ReflectRecv replaces the method call v.Recv() of a reflect.Value.
func ReflectRecv(v reflect.Value, s Site) (reflect.Value, bool) {
	g := modeled(v)
	if g == nil {
		return v.Recv()
	}
	mustDir(v, reflect.RecvDir, "reflect: recv on send-only channel")
	o, _ := reflectModel(g, v)
	slot, ok := g.Recv(o, uint32(s))
	// The storage is looked up again: a typed operation may have
	// replaced it while the receive waited.
	return slabOf(o).takeValue(slot, v.Type().Elem()), ok
}

// ReflectTryRecv replaces the method call v.TryRecv() of a reflect.Value.
func ReflectTryRecv(v reflect.Value, s Site) (reflect.Value, bool) {
	g := modeled(v)
	if g == nil {
		return v.TryRecv()
	}
	mustDir(v, reflect.RecvDir, "reflect: recv on send-only channel")
	o, _ := reflectModel(g, v)
	i, slot, ok := g.Select([]sched.SelectCase{{Ch: o, Slot: -1}}, true, uint32(s))
	if i < 0 {
		return reflect.Value{}, false
	}
	return slabOf(o).takeValue(slot, v.Type().Elem()), ok
}

// ReflectClose replaces the method call v.Close() of a reflect.Value.
func ReflectClose(v reflect.Value, s Site) {
	g := modeled(v)
	if g == nil {
		v.Close()
		return
	}
	mustDir(v, reflect.SendDir, "reflect: close of receive-only channel")
	o, _ := reflectModel(g, v)
	g.Close(o, uint32(s))
	v.Close()
}

// ReflectSelect replaces reflect.Select.
func ReflectSelect(cases []reflect.SelectCase, s Site) (chosen int, recv reflect.Value, recvOK bool) {
	g := cur()
	if g == nil {
		return reflect.Select(cases)
	}
	for _, c := range cases {
		if c.Chan.IsValid() && c.Chan.Kind() == reflect.Chan && !c.Chan.CanInterface() {
			return reflect.Select(cases) // reflect panics
		}
	}
	// Checked as reflect.Select checks them, with its messages.
	sc := make([]sched.SelectCase, 0, len(cases))
	idx := make([]int, 0, len(cases))
	def := -1
	for i, c := range cases {
		switch c.Dir {
		case reflect.SelectDefault:
			if def >= 0 {
				panic("reflect.Select: multiple default cases")
			}
			if c.Chan.IsValid() {
				panic("reflect.Select: default case has Chan value")
			}
			if c.Send.IsValid() {
				panic("reflect.Select: default case has Send value")
			}
			def = i
			continue
		case reflect.SelectSend:
			if !c.Chan.IsValid() {
				break
			}
			mustChan(c.Chan)
			mustDir(c.Chan, reflect.SendDir, "reflect.Select: SendDir case using recv-only channel")
			if !c.Send.IsValid() {
				panic("reflect.Select: SendDir case missing Send value")
			}
			t := c.Chan.Type().Elem()
			x := sendable(c.Send, t, "reflect.Select")
			o, sl := reflectModel(g, c.Chan)
			slot := int32(-1)
			if sl != nil {
				slot = sl.putValue(x, t)
			}
			sc = append(sc, sched.SelectCase{Ch: o, Send: true, Slot: slot})
			idx = append(idx, i)
			continue
		case reflect.SelectRecv:
			if c.Send.IsValid() {
				panic("reflect.Select: RecvDir case has Send value")
			}
			if !c.Chan.IsValid() {
				break
			}
			mustChan(c.Chan)
			mustDir(c.Chan, reflect.RecvDir, "reflect.Select: RecvDir case using send-only channel")
			o, _ := reflectModel(g, c.Chan)
			sc = append(sc, sched.SelectCase{Ch: o, Slot: -1})
			idx = append(idx, i)
			continue
		default:
			panic("reflect.Select: invalid Dir")
		}
		// A case without a channel is never ready, as a nil channel.
		sc = append(sc, sched.SelectCase{Slot: -1})
		idx = append(idx, i)
	}
	k, slot, ok := g.Select(sc, def >= 0, uint32(s))
	for j, c := range sc {
		if c.Send && j != k && c.Ch != nil {
			slabOf(c.Ch).release(c.Slot)
		}
	}
	if k < 0 {
		return def, reflect.Value{}, false
	}
	chosen = idx[k]
	if c := cases[chosen]; c.Dir == reflect.SelectRecv {
		t := c.Chan.Type().Elem()
		if sc[k].Ch == nil {
			return chosen, reflect.Zero(t), false
		}
		return chosen, slabOf(sc[k].Ch).takeValue(slot, t), ok
	}
	return chosen, reflect.Value{}, false
}

// mustChan panics as reflect does when a case's Chan is no channel.
func mustChan(v reflect.Value) {
	if v.Kind() != reflect.Chan {
		panic(&reflect.ValueError{Method: "reflect.Select", Kind: v.Kind()})
	}
}

// hchanHead mirrors the first fields of the runtime's channel structure
// (runtime/chan.go), laid out the same from Go 1.0 through 1.26.
type hchanHead struct {
	qcount   uint
	dataqsiz uint
	buf      unsafe.Pointer
	elemsize uint16
	closed   uint32
}

// nativeClosed reports whether the channel at p is closed natively, with
// no effect on it (a receive would take a value, or a blocked sender's).
func nativeClosed(p unsafe.Pointer) bool {
	return atomic.LoadUint32(&(*hchanHead)(p).closed) != 0
}

// adoptNative gives the model of channel v, seen for the first time in
// the iteration, the state the channel has natively: closed, or values in
// its buffer (a channel closed, or a semaphore filled, by package
// initialization or an earlier iteration). The model otherwise starts
// empty and open, and a receive from a closed channel, or from a filled
// semaphore, would block for good. The buffered values are taken out and
// put back in the same order, so that the channel is as it was for the
// next iteration; a closed channel still holding values cannot be put
// back, and is left to the model as open and empty.
func adoptNative(o *sched.ChanObj, v reflect.Value, vs valueSlab) {
	p := v.UnsafePointer()
	closed := nativeClosed(p)
	n := v.Len()
	if n == 0 {
		if closed {
			o.AdoptNative(nil, true)
		}
		return
	}
	if closed {
		return
	}
	vals := make([]reflect.Value, 0, n)
	for len(vals) < n {
		x, ok := v.TryRecv()
		if !ok {
			break
		}
		vals = append(vals, x)
	}
	slots := make([]int32, len(vals))
	t := v.Type().Elem()
	for i, x := range vals {
		v.TrySend(x)
		slots[i] = vs.putValue(x, t)
	}
	o.AdoptNative(slots, false)
}
