//go:build go1.25

package rt

import (
	"testing"
	"testing/synctest"
)

// SynctestTest replaces synctest.Test. Inside an exploration f runs in the
// calling goroutine: the exploration's virtual clock already is what a
// bubble gives (time moves when goroutines are blocked), and its
// goroutines are controlled goroutines like any other.
func SynctestTest(t *testing.T, f func(*testing.T), s Site) {
	if cur() != nil {
		f(t)
		return
	}
	t.Helper()
	synctest.Test(t, f)
}

// SynctestWait replaces synctest.Wait: inside an exploration it returns
// once every other goroutine is blocked.
func SynctestWait(s Site) {
	if g := cur(); g != nil {
		g.WaitIdle(uint32(s))
		return
	}
	synctest.Wait()
}
