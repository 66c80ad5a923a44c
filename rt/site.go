package rt

import "interleave.dev/rt/internal/site"

// Site identifies the static source position of an instrumented operation.
// Site 0 means "unknown". Instrumented files register their sites once with
// RegisterFile and refer to them as base+k.
type Site uint32

// Position is a source position of a Site.
type Position = site.Position

// RegisterFile registers the sites of one source file and returns the Site
// of the first one; the k-th site of the file is the returned value plus k.
// lineCols holds a line and a column for each site, in order. File is the
// path of the original (not instrumented) file.
//
// names says, one line per site, what each operation acts on as the
// source names it, for reports ("" when no site has a name): an empty
// line for a site without an operand, or operands separated by tabs (one
// per case of a select), each a kind ('v' memory, 'l' a lock, 'w' a
// WaitGroup, 'o' a Once, 'k' a Cond, 'c' a channel, 'm' a sync.Map, 'p'
// a Pool), a direction ('*' any operation of the site, '<' those that
// read or receive, '>' those that write or send) and the operand's text,
// e.g. "l*from.mu" or "c<done\tc>out". Only reports split it.
func RegisterFile(file, names string, lineCols ...int) Site {
	return Site(site.Register(file, names, lineCols...))
}

// SitePosition returns the source position of s.
func SitePosition(s Site) Position { return site.Pos(uint32(s)) }
