// Package site keeps the source positions of instrumented operations:
// instrumented files register theirs once, as the program starts, and
// events, reports and signatures name a position by its number.
//
// A site also says, when the source names it, what the operation acts on:
// the variable, field or element of a memory access, the receiver of a
// Lock or a Wait, the channel of a send. Reports use these names; the
// scheduling never looks at them. A file registers them as one string
// (Register), split only when a report first asks for a name of the file.
package site

import (
	"sort"
	"strings"
	"sync"
)

// Position is a source position.
type Position struct {
	File   string
	Line   int
	Column int
}

// Operand is what an operation acts on, as the source names it.
type Operand struct {
	// Kind is the kind of object named: one of the Kind constants.
	Kind byte
	// Dir restricts the name to the operations of the site that read or
	// receive (DirIn), or that write or send (DirOut); DirAny for all.
	Dir byte
	// Text is the operand as written in the source (normalized, and
	// shortened with an ellipsis when long), e.g. "c.n" or "st.m[k]".
	Text string
}

// The kinds of object an Operand names.
const (
	Memory    = 'v' // a variable, field or element, accessed plainly or atomically
	Lock      = 'l' // a Mutex, an RWMutex, or a Locker
	WaitGroup = 'w'
	Once      = 'o'
	Cond      = 'k' // a Cond (its L is the Lock its Wait releases and takes again)
	Chan      = 'c'
	SyncMap   = 'm'
	Pool      = 'p'
)

// The directions of an Operand.
const (
	DirAny = '*'
	DirIn  = '<' // reads, loads, receives
	DirOut = '>' // writes, stores, updates, sends, closes
)

// file is the operand table of one registered file.
type fileTable struct {
	base, n uint32 // its sites are base to base+n-1
	table   string
	entries []string // table split, on first use
}

var sites = struct {
	sync.Mutex
	pos   []Position
	files []*fileTable // in order of base, for the files with a table
}{pos: []Position{{}}}

// Register registers the sites of one source file and returns the number
// of the first one; the k-th site of the file is the returned value plus
// k. lineCols holds a line and a column for each site, in order. file is
// the path of the original (not instrumented) file.
//
// names holds the operands of the sites, one entry a line, the k-th line
// for the k-th site (missing lines at the end: no operand). An entry is
// empty (no operand) or one or more operands separated by tabs (the cases
// of a select), each a Kind, a direction (DirAny, DirIn or DirOut) and
// the operand's text, e.g. "l*from.mu" or "c<done\tc>out". The text has
// neither a tab nor a newline.
func Register(file string, names string, lineCols ...int) uint32 {
	sites.Lock()
	defer sites.Unlock()
	base := uint32(len(sites.pos))
	for i := 0; i+1 < len(lineCols); i += 2 {
		sites.pos = append(sites.pos, Position{File: file, Line: lineCols[i], Column: lineCols[i+1]})
	}
	if names != "" {
		sites.files = append(sites.files, &fileTable{base: base, n: uint32(len(sites.pos)) - base, table: names})
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

// Operands returns what the operation at site s acts on, as the source
// names it: nothing for a site without a name (a go statement, a call of
// time.Sleep, an unknown site), one operand for most, one per case for a
// select. It is meant for reports: the first call for a file splits the
// file's table.
func Operands(s uint32) []Operand {
	sites.Lock()
	defer sites.Unlock()
	i := sort.Search(len(sites.files), func(i int) bool { return sites.files[i].base+sites.files[i].n > s })
	if i == len(sites.files) || s < sites.files[i].base {
		return nil
	}
	return sites.files[i].operands(s - sites.files[i].base)
}

// operands parses the entry of the k-th site of f.
func (f *fileTable) operands(k uint32) []Operand {
	if f.entries == nil {
		f.entries = strings.Split(f.table, "\n")
	}
	if int(k) >= len(f.entries) || f.entries[k] == "" {
		return nil
	}
	var ops []Operand
	for _, e := range strings.Split(f.entries[k], "\t") {
		if len(e) < 3 {
			continue // a corrupt entry names nothing
		}
		ops = append(ops, Operand{Kind: e[0], Dir: e[1], Text: e[2:]})
	}
	return ops
}
