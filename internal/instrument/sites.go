package instrument

import (
	"bytes"
	"fmt"
	"go/token"
)

// Sites. Every operation passes a Site, a small integer naming its source
// position. A rewritten file registers its sites once, in a package-level
// variable appended at its end,
//
//	var __rtSites_<hash of the file name> = __rt.RegisterFile("<original path>", line, col, line, col, ...)
//
// and the k-th operation passes __rtSites_<hash>+k. The variable's name is
// unique among the files of a package (they have distinct base names).

// site registers the site at pos and returns the expression naming it.
func (r *rewriter) site(pos token.Pos) string {
	p := r.position(pos)
	k := len(r.sites) / 2
	r.sites = append(r.sites, p.Line, p.Column)
	return fmt.Sprintf("%s+%d", r.sitesVar, k)
}

func (r *rewriter) siteList() string {
	var b bytes.Buffer
	for i := 0; i < len(r.sites); i += 2 {
		fmt.Fprintf(&b, ", %d, %d", r.sites[i], r.sites[i+1])
	}
	return b.String()
}
