package partial

import (
	"sync"
	"testing"
)

func TestConfigOnce(t *testing.T) {
	s := &Service{}
	var wg sync.WaitGroup
	got := make([]*Config, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got[i] = s.Config()
		}(i)
	}
	wg.Wait()
	if got[0] == nil || got[0] != got[1] {
		t.Errorf("two configurations: %p and %p", got[0], got[1])
	}
}
