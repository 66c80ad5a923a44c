// Package buggy is the buggy variant of the mysql-log-table kernel.
package buggy

import "sync"

type table struct {
	mu   sync.Mutex // m1
	rows map[int]int
}

func (t *table) insert(k, v int) {
	t.mu.Lock()
	t.rows[k] = v
	t.mu.Unlock()
}

func (t *table) removeAll() {
	t.mu.Lock()
	t.rows = map[int]int{}
	t.mu.Unlock()
}

type binlog struct {
	mu      sync.Mutex // m2
	entries []string
}

func (l *binlog) write(s string) {
	l.mu.Lock()
	l.entries = append(l.entries, s)
	l.mu.Unlock()
}

// DB is a table with a log of the operations applied to it; replaying the
// log must give the table's content.
type DB struct {
	table table
	log   binlog
}

// NewDB returns an empty database.
func NewDB() *DB { return &DB{table: table{rows: map[int]int{}}} }

// Insert sets row k to v and logs it.
func (db *DB) Insert(k, v int) {
	db.table.insert(k, v)
	// BUG: the table update and the log write are separate critical
	// sections under different mutexes; a concurrent RemoveAll can land
	// in between, and the log order differs from the table order.
	db.log.write("insert")
}

// RemoveAll clears the table and logs it.
func (db *DB) RemoveAll() {
	db.table.removeAll()
	db.log.write("remove")
}

// Log returns the log entries.
func (db *DB) Log() []string {
	db.log.mu.Lock()
	defer db.log.mu.Unlock()
	return append([]string(nil), db.log.entries...)
}

// Rows returns the number of rows.
func (db *DB) Rows() int {
	db.table.mu.Lock()
	defer db.table.mu.Unlock()
	return len(db.table.rows)
}
