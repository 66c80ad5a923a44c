package reflectchan

import "reflect"

type holder struct{ reflect.Value }

// Channel operations through reflect.
func ops(c chan int, p *reflect.Value, h holder) {
	v := reflect.ValueOf(c)
	_ = v.Len()
	_ = reflect.ValueOf(c).Len()
	_ = p.Len()
	_ = h.Len()
	_ = v.Cap()
	v.Send(reflect.ValueOf(1))
	_ = v.TrySend(reflect.ValueOf(2))
	x, ok := v.Recv()
	_, _ = x, ok
	x, ok = v.TryRecv()
	chosen, recv, recvOK := reflect.Select([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: v}})
	_, _, _ = chosen, recv, recvOK
	v.Close()
	_ = reflect.ValueOf("abc").Len()
}
