package partial

import (
	"errors"
	"sync"
	"testing"
)

func TestShutdown(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.Stop()
	}()
	go func() {
		defer wg.Done()
		s.Stop()
	}()
	s.Fail(errors.New("disk full"))
	wg.Wait()
	<-s.Done()
}
