package rt

import "reflect"

// MakeChan replaces make(chan T, size).
func MakeChan[T any](size int, s Site) chan T {
	return make(chan T, size)
}

// Send replaces the statement c <- v.
func Send[T any](c chan<- T, v T, s Site) {
	c <- v
}

// Recv replaces the expression <-c.
func Recv[T any](c <-chan T, s Site) T {
	return <-c
}

// Recv2 replaces the comma-ok receive v, ok := <-c.
func Recv2[T any](c <-chan T, s Site) (T, bool) {
	v, ok := <-c
	return v, ok
}

// Close replaces close(c).
func Close[T any](c chan<- T, s Site) {
	close(c)
}

// Len replaces len(c) for a channel c of any direction. c must be a channel.
func Len(c any, s Site) int {
	return reflect.ValueOf(c).Len()
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
// runs in the same goroutine.
type Select struct {
	site   Site
	native []reflect.SelectCase
	value  reflect.Value
	ok     bool
}

// SelectStart begins a select statement.
func SelectStart(s Site) *Select {
	return &Select{site: s}
}

// SelectRecv adds a receive case on c.
func SelectRecv[T any](sel *Select, c <-chan T) {
	sel.native = append(sel.native, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)})
}

// SelectSend adds a send case of v on c.
func SelectSend[T any](sel *Select, c chan<- T, v T) {
	sel.native = append(sel.native, reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(c), Send: reflect.ValueOf(&v).Elem()})
}

// Do runs the select statement and returns the index of the case taken, or
// -1 when hasDefault is true and no case was ready.
func (sel *Select) Do(hasDefault bool) int {
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
	if !sel.value.IsValid() || !sel.ok {
		return zero, sel.ok
	}
	return sel.value.Interface().(T), true
}
