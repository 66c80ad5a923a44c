package fidelity

import (
	"sync"
	"testing"
)

type rlockerer interface{ RLocker() sync.Locker }

// A Cond's L obtained from RWMutex.RLocker through an interface holds a
// read lock: a writer cannot lock meanwhile.
func TestRLockerThroughInterface(t *testing.T) {
	var rw sync.RWMutex
	var x rlockerer = &rw
	c := sync.NewCond(x.RLocker())
	c.L.Lock()
	if rw.TryLock() {
		t.Fatal("a writer locked under a read lock")
	}
	c.L.Unlock()
	if !rw.TryLock() {
		t.Fatal("the read lock was not released")
	}
	rw.Unlock()
}

var (
	closedAtInit = make(chan struct{})
	semaphore    = make(chan struct{}, 2)
)

func init() {
	close(closedAtInit)
	semaphore <- struct{}{}
	semaphore <- struct{}{}
}

// Channels closed and filled by package initialization.
func TestChannelsFromInit(t *testing.T) {
	<-closedAtInit
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-semaphore
			semaphore <- struct{}{}
		}()
	}
	wg.Wait()
	if len(semaphore) != 2 {
		t.Fatalf("%d tokens left", len(semaphore))
	}
}
