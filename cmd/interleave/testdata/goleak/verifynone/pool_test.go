package verifynone

import (
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestPoolNoLeak(t *testing.T) {
	defer goleak.VerifyNone(t)
	p := New(2)
	var mu sync.Mutex
	n := 0
	for i := 0; i < 3; i++ {
		p.Submit(func() {
			mu.Lock()
			n++
			mu.Unlock()
		})
	}
	p.Close()
	if n != 3 {
		t.Errorf("%d jobs ran, want 3", n)
	}
}

func TestFindNoLeak(t *testing.T) {
	p := New(1)
	p.Submit(func() {})
	p.Close()
	if err := goleak.Find(); err != nil {
		t.Fatal(err)
	}
}

func TestPoolNeverClosed(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	p := New(1)
	p.Submit(func() {})
}
