//line testdata/reflectchan.go:1
package reflectchan; import __rt "interleave.dev/rt"

import "reflect"

type holder struct{ reflect.Value }

// Channel operations through reflect.
func ops(c chan int, p *reflect.Value, h holder) {
	v := reflect.ValueOf(c)
	_ = __rt.ReflectLen(v, __rtSites_8b353172+0)
	_ = __rt.ReflectLen(reflect.ValueOf(c), __rtSites_8b353172+1)
	__rt.Read(p, __rtSites_8b353172+11); _ = __rt.ReflectLen((*p), __rtSites_8b353172+2)
	_ = __rt.ReflectLen(h.Value, __rtSites_8b353172+3)
	_ = v.Cap()
	__rt.ReflectSend(v, reflect.ValueOf(1), __rtSites_8b353172+4)
	_ = __rt.ReflectTrySend(v, reflect.ValueOf(2), __rtSites_8b353172+5)
	x, ok := __rt.ReflectRecv(v, __rtSites_8b353172+6)
	_, _ = x, ok
	x, ok = __rt.ReflectTryRecv(v, __rtSites_8b353172+7)
	chosen, recv, recvOK := __rt.ReflectSelect([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: v}}, __rtSites_8b353172+8)
	_, _, _ = chosen, recv, recvOK
	__rt.ReflectClose(v, __rtSites_8b353172+9)
	_ = __rt.ReflectLen(reflect.ValueOf("abc"), __rtSites_8b353172+10)
}

var __rtSites_8b353172 = __rt.RegisterFile("testdata/reflectchan.go", "c*v\nc*reflect.ValueOf(c)\nc*p\nc*h.Value\nc*v\nc*v\nc*v\nc*v\n\nc*v\nc*reflect.ValueOf(\"abc\")\nv*p", 10, 6, 11, 6, 12, 6, 13, 6, 15, 2, 16, 6, 17, 11, 19, 10, 20, 26, 22, 2, 23, 6, 12, 8)
