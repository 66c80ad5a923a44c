package fixed

import (
	"sort"
	"sync"
	"testing"
)

func TestStack(t *testing.T) {
	s := &Stack{}
	s.Push(1)
	s.Push(2)
	var mu sync.Mutex
	var got []int64
	record := func(v int64, ok bool) {
		if ok {
			mu.Lock()
			got = append(got, v)
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		record(s.Pop())
	}()
	go func() {
		defer wg.Done()
		record(s.Pop())
		record(s.Pop())
		s.Push(3)
	}()
	wg.Wait()
	for i := 0; i < 5; i++ { // drain, bounded in case the stack is corrupt
		record(s.Pop())
	}
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Errorf("popped %v over the run, want each of 1 2 3 exactly once", got)
	}
}
