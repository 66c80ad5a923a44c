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
func RegisterFile(file string, lineCols ...int) Site {
	return Site(site.Register(file, lineCols...))
}

// SitePosition returns the source position of s.
func SitePosition(s Site) Position { return site.Pos(uint32(s)) }
