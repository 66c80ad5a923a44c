package buggy

import (
	"sync"
	"testing"
)

func TestLogMatchesTable(t *testing.T) {
	db := NewDB()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		db.RemoveAll()
	}()
	go func() {
		defer wg.Done()
		db.Insert(1, 2)
	}()
	wg.Wait()
	rows := 0 // replay the log
	for _, e := range db.Log() {
		switch e {
		case "insert":
			rows = 1
		case "remove":
			rows = 0
		}
	}
	if got := db.Rows(); got != rows {
		t.Errorf("table has %d rows, replaying the log %v gives %d", got, db.Log(), rows)
	}
}
