package buggy

import "testing"

func TestServeAfterInstall(t *testing.T) {
	s := &Server{}
	done := Start(s, func() int { return 1 })
	for i := 0; i < 2; i++ {
		if v := <-done; v != 1 {
			t.Errorf("got %d", v)
		}
	}
}
