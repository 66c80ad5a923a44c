package fixed

import (
	"sync"
	"testing"
)

func TestReadUnderUpdates(t *testing.T) {
	c := &Config{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := 1; v <= 3; v++ {
			c.Update(v)
		}
	}()
	v, err := c.Read()
	if err != nil {
		t.Errorf("Read: %v", err)
	} else if v < 0 || v > 3 {
		t.Errorf("Read = %d, want a published version", v)
	}
	wg.Wait()
}
