package fixed

import (
	"sync"
	"testing"
)

func TestAuditDuringCompaction(t *testing.T) {
	s := &Store{}
	var wg sync.WaitGroup
	wg.Add(6)
	go func() {
		defer wg.Done()
		if !s.Audit() {
			t.Error("the index is ahead of the ledger")
		}
	}()
	for w := 0; w < 4; w++ {
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				s.Serve()
			}
		}()
	}
	go func() {
		defer wg.Done()
		for i := 0; i < 8; i++ {
			s.Serve()
		}
		s.Compact()
	}()
	wg.Wait()
}
