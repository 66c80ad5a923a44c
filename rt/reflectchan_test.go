package rt_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"interleave.dev/rt"
)

// reflect's channel operations on channels the model governs compute
// what they compute natively: each program's outcomes are those of the
// same program run natively (written down).

func TestReflectChanLenCap(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[int](3, 0)
		rt.Send(c, 1, 0)
		rt.Send(c, 2, 0)
		v := reflect.ValueOf(c)
		return fmt.Sprint(rt.ReflectLen(v, 0), v.Cap(), rt.ReflectLen(reflect.ValueOf("abc"), 0))
	}), "2 3 3")
}

func TestReflectChanSendRecv(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[int](1, 0)
		v := reflect.ValueOf(c)
		rt.ReflectSend(v, reflect.ValueOf(7), 0)
		got := rt.Recv(c, 0)
		rt.Send(c, 8, 0)
		x, ok := rt.ReflectRecv(v, 0)
		sent := rt.ReflectTrySend(v, reflect.ValueOf(9), 0)
		full := rt.ReflectTrySend(v, reflect.ValueOf(10), 0)
		y, ok2 := rt.ReflectTryRecv(v, 0)
		z, ok3 := rt.ReflectTryRecv(v, 0)
		rt.ReflectClose(v, 0)
		w, ok4 := rt.Recv2(c, 0)
		u, ok5 := rt.ReflectRecv(v, 0)
		return fmt.Sprint(got, x, ok, x.CanAddr(), sent, full, y, ok2, z.IsValid(), ok3, w, ok4, u, ok5)
	}), "7 8 true false true false 9 true false false 0 false 0 false")
}

// A blocked reflect receive gets the value of a typed send, and the
// reverse, in either order.
func TestReflectChanBlocking(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[string](0, 0)
		done := rt.MakeChan[string](1, 0)
		rt.Go(func() {
			x, _ := rt.ReflectRecv(reflect.ValueOf(c), 0)
			rt.Send(done, x.String(), 0)
		}, 0)
		rt.Send(c, "a", 0)
		rt.Go(func() { rt.ReflectSend(reflect.ValueOf(c), reflect.ValueOf("b"), 0) }, 0)
		return rt.Recv(done, 0) + rt.Recv(c, 0)
	}), "ab")
}

// A channel made by reflect and first used through it; the typed
// operations that follow find its values.
func TestReflectChanFirstUse(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		v := reflect.MakeChan(reflect.TypeOf(make(chan error)), 2)
		e := errors.New("e")
		rt.ReflectSend(v, reflect.ValueOf(e), 0)
		rt.ReflectSend(v, reflect.Zero(reflect.TypeOf((*error)(nil)).Elem()), 0)
		c := v.Interface().(chan error)
		n := rt.Len(c, 0)
		first := rt.Recv(c, 0)
		x, ok := rt.ReflectRecv(v, 0)
		return fmt.Sprint(n, first == e, x.Kind(), x.IsNil(), ok)
	}), "2 true interface true true")
}

func TestReflectSelect(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		a := rt.MakeChan[int](0, 0)
		b := rt.MakeChan[int](1, 0)
		rt.Go(func() { rt.Send(a, 1, 0) }, 0)
		cases := []reflect.SelectCase{
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(a)},
			{Dir: reflect.SelectSend, Chan: reflect.ValueOf(b), Send: reflect.ValueOf(2)},
			{Dir: reflect.SelectRecv}, // no channel: never ready
		}
		i, x, ok := rt.ReflectSelect(cases, 0)
		j, y, ok2 := rt.ReflectSelect(cases, 0)
		rest := rt.Len(b, 0)
		cases = append(cases[:1], reflect.SelectCase{Dir: reflect.SelectDefault})
		k, _, _ := rt.ReflectSelect(cases, 0)
		if i == 0 {
			return fmt.Sprint(i, x, ok, j, y.IsValid(), ok2, rest, k)
		}
		return fmt.Sprint(i, x.IsValid(), ok, j, y, ok2, rest, k)
	}), "0 1 true 1 false false 1 1", "1 false false 0 1 true 1 1")
}
