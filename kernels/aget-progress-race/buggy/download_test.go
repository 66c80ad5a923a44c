package buggy

import (
	"sync"
	"testing"
)

func TestDownload(t *testing.T) {
	d := &Download{}
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				d.Write(10)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if p := d.Progress(); p < 0 || p > 40 {
			t.Errorf("progress %d out of range", p)
		}
	}()
	wg.Wait()
	if n := d.Total(); n != 40 {
		t.Errorf("total = %d, want 40", n)
	}
}
