package instrument

import (
	"go/ast"
	"go/token"
	"strings"
)

// breakpointDirective starts a concurrency breakpoint comment:
//
//	//interleave:breakpoint NAME [WAIT]
//
// on a line of its own between two statements of a function body. It
// becomes a call rt.Breakpoint("NAME", "WAIT", site) at the comment, on
// the same line: inside an exploration the goroutine stands there until
// another arrives at breakpoint WAIT (see rt.Breakpoint). It is a comment,
// so the user's module needs no dependency, and plain go test ignores it.
const breakpointDirective = "//interleave:breakpoint"

// breakpoints rewrites the breakpoint directives of the file. A directive
// that is not between two statements of a block (inside an expression, at
// top level) or that names no breakpoint is left alone with a warning.
func (r *rewriter) breakpoints() {
	for _, cg := range r.file.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, breakpointDirective) {
				continue
			}
			rest := strings.TrimPrefix(c.Text, breakpointDirective)
			if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				continue // another word: //interleave:breakpoints...
			}
			args := strings.Fields(rest)
			if len(args) == 0 || len(args) > 2 {
				r.warnf(c.Pos(), "breakpoint directive left alone: want //interleave:breakpoint NAME [WAIT]")
				continue
			}
			if !r.ownLine(c.Pos()) || !r.betweenStatements(c.Pos()) {
				r.warnf(c.Pos(), "breakpoint directive left alone: it is not on a line of its own between two statements of a function body")
				continue
			}
			wait := ""
			if len(args) == 2 {
				wait = args[1]
			}
			r.edits.insert(r.off(c.Pos()), r.rt("Breakpoint")+"("+quote(args[0])+", "+quote(wait)+", "+r.site(c.Pos())+"); ")
		}
	}
}

// ownLine reports whether only blanks precede pos on its line.
func (r *rewriter) ownLine(pos token.Pos) bool {
	for i := r.off(pos) - 1; i >= 0 && r.src[i] != '\n'; i-- {
		if r.src[i] != ' ' && r.src[i] != '\t' {
			return false
		}
	}
	return true
}

// betweenStatements reports whether pos lies in a statement list (a block,
// or the body of a case or select clause) and inside none of its
// statements.
func (r *rewriter) betweenStatements(pos token.Pos) bool {
	found := false
	ast.Inspect(r.file, func(n ast.Node) bool {
		if found || n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		var list []ast.Stmt
		var from, to token.Pos
		switch n := n.(type) {
		case *ast.BlockStmt:
			switch r.parents[n].(type) {
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				return true // a list of clauses, not of statements
			}
			list, from, to = n.List, n.Lbrace+1, n.Rbrace
		case *ast.CaseClause:
			list, from, to = n.Body, n.Colon+1, n.End()
		case *ast.CommClause:
			list, from, to = n.Body, n.Colon+1, n.End()
		default:
			return true
		}
		if pos < from || pos >= to {
			return true
		}
		for _, s := range list {
			if s.Pos() <= pos && pos < s.End() {
				return true // inside a statement: look deeper
			}
		}
		found = true
		return false
	})
	return found
}
