package instrument

import (
	"fmt"
	"go/build/constraint"
	"go/version"
	"strings"
)

// Language versions. Generated code calls generic runtime functions, which
// files written for a language version before Go 1.18 may not call. Such a
// file gets a //go:build line that adds go1.21 to its constraint: a file
// version set by //go:build is at least go1.21 (see go/types), and go1.21
// keeps the loop variable semantics of the older version. The original
// //go:build and // +build lines become plain comments, on their lines, so that the build sees one consistent constraint.

// fileVersion returns the language version of the file.
func (r *rewriter) fileVersion() string {
	v := r.info.FileVersions[r.file]
	if v == "" {
		v = r.pkg.GoVersion()
	}
	return v
}

// languageHeader returns the text to put before the file's first line
// directive: a //go:build line upgrading the file to go1.21 if its
// language version predates generics, and "" otherwise.
func (r *rewriter) languageHeader() (string, error) {
	v := r.fileVersion()
	if v == "" || version.Compare(v, "go1.18") >= 0 {
		return "", nil
	}
	var goBuild, plusBuild constraint.Expr
	for _, cg := range r.file.Comments {
		if cg.Pos() >= r.file.Package {
			break
		}
		for _, c := range cg.List {
			switch {
			case constraint.IsGoBuild(c.Text):
				x, err := constraint.Parse(c.Text)
				if err != nil {
					return "", fmt.Errorf("parsing %q: %w", c.Text, err)
				}
				goBuild = x
			case constraint.IsPlusBuild(c.Text):
				x, err := constraint.Parse(c.Text)
				if err != nil {
					return "", fmt.Errorf("parsing %q: %w", c.Text, err)
				}
				if plusBuild == nil {
					plusBuild = x
				} else {
					plusBuild = &constraint.AndExpr{X: plusBuild, Y: x}
				}
			default:
				continue
			}
			// Replace the original line by a plain comment.
			r.edits.add(r.off(c.Pos()), r.off(c.End()), text("// (build constraint moved to the first line by interleave)"))
		}
	}
	expr := goBuild
	if expr == nil {
		expr = plusBuild
	}
	var up constraint.Expr = &constraint.TagExpr{Tag: "go1.21"}
	if expr != nil {
		up = &constraint.AndExpr{X: expr, Y: up}
	}
	return "//go:build " + strings.TrimSpace(up.String()) + "\n\n", nil
}
