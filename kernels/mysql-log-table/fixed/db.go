// Package fixed is the fixed variant of the mysql-log-table kernel.
package fixed

import "sync"

// DB is a table with a log of the operations applied to it; replaying the
// log must give the table's content. Each operation updates the table and
// the log in one critical section.
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
	defer db.mu.Unlock()
	db.rows[k] = v
	db.entries = append(db.entries, "insert")
}

// RemoveAll clears the table and logs it.
func (db *DB) RemoveAll() {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.rows = map[int]int{}
	db.entries = append(db.entries, "remove")
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
