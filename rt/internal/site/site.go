// Package site keeps the source positions of instrumented operations:
// instrumented files register theirs once, as the program starts, and
// events, reports and signatures name a position by its number.
package site

import "sync"

// Position is a source position.
type Position struct {
	File   string
	Line   int
	Column int
}

var sites = struct {
	sync.Mutex
	pos []Position
}{pos: []Position{{}}}

// Register registers the sites of one source file and returns the number
// of the first one; the k-th site of the file is the returned value plus
// k. lineCols holds a line and a column for each site, in order. file is
// the path of the original (not instrumented) file.
func Register(file string, lineCols ...int) uint32 {
	sites.Lock()
	defer sites.Unlock()
	base := uint32(len(sites.pos))
	for i := 0; i+1 < len(lineCols); i += 2 {
		sites.pos = append(sites.pos, Position{File: file, Line: lineCols[i], Column: lineCols[i+1]})
	}
	return base
}

// Pos returns the source position of site s (the zero Position for 0 or
// an unknown site).
func Pos(s uint32) Position {
	sites.Lock()
	defer sites.Unlock()
	if int(s) < len(sites.pos) {
		return sites.pos[s]
	}
	return Position{}
}
