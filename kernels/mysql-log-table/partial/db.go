// Package partial is the partial variant of the mysql-log-table kernel.
package partial

import "sync"

// DB is a table with a log of the operations applied to it; replaying the
// log must give the table's content. The partial fix moved the two mutexes
// into one.
type DB struct {
	mu      sync.Mutex // m, shared by the table and the log
	rows    map[int]int
	entries []string
}

// NewDB returns an empty database.
func NewDB() *DB { return &DB{rows: map[int]int{}} }

// Insert sets row k to v and logs it.
func (db *DB) Insert(k, v int) {
	db.mu.Lock()
	db.rows[k] = v
	db.mu.Unlock()
	// BUG: one mutex now, but still two critical sections: the same
	// interleaving with a single lock.
	db.mu.Lock()
	db.entries = append(db.entries, "insert")
	db.mu.Unlock()
}

// RemoveAll clears the table and logs it.
func (db *DB) RemoveAll() {
	db.mu.Lock()
	db.rows = map[int]int{}
	db.mu.Unlock()
	db.mu.Lock()
	db.entries = append(db.entries, "remove")
	db.mu.Unlock()
}

// Log returns the log entries.
func (db *DB) Log() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]string(nil), db.entries...)
}

// Rows returns the number of rows.
func (db *DB) Rows() int {
	db.mu.Lock()
	defer db.mu.Unlock()
	return len(db.rows)
}
