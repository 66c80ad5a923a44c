package rt

import "sync"

// Site identifies the static source position of an instrumented operation.
// Site 0 means "unknown". Instrumented files register their sites once with
// RegisterFile and refer to them as base+k.
type Site uint32

// Position is a source position of a Site.
type Position struct {
	File   string
	Line   int
	Column int
}

var sites = struct {
	sync.Mutex
	pos []Position
}{pos: []Position{{}}}

// RegisterFile registers the sites of one source file and returns the Site
// of the first one; the k-th site of the file is the returned value plus k.
// lineCols holds a line and a column for each site, in order. File is the
// path of the original (not instrumented) file.
func RegisterFile(file string, lineCols ...int) Site {
	sites.Lock()
	defer sites.Unlock()
	base := Site(len(sites.pos))
	for i := 0; i+1 < len(lineCols); i += 2 {
		sites.pos = append(sites.pos, Position{File: file, Line: lineCols[i], Column: lineCols[i+1]})
	}
	return base
}

// SitePosition returns the source position of s.
func SitePosition(s Site) Position {
	sites.Lock()
	defer sites.Unlock()
	if int(s) < len(sites.pos) {
		return sites.pos[s]
	}
	return Position{}
}
