//go:build go1.25

package rt

import (
	"testing"
	"testing/synctest"
)

// SynctestTest replaces synctest.Test. Inside an exploration f runs in the
// calling goroutine, its goroutines are controlled goroutines like any
// other, and the virtual clock keeps the bubble's promise: it stands still
// while code runs, and no timer fires before its time.
func SynctestTest(t *testing.T, f func(*testing.T), s Site) {
	if g := cur(); g != nil {
		g.EnterBubble()
		defer g.LeaveBubble()
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
