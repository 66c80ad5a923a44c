package fixed

import (
	"sync"
	"testing"
)

func TestFormat(t *testing.T) {
	var wg sync.WaitGroup
	out := make([]string, 2)
	for i := range out {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = Format("k", i)
		}(i)
	}
	wg.Wait()
	if out[0] != "k=0" || out[1] != "k=1" {
		t.Errorf("got %q", out)
	}
}
