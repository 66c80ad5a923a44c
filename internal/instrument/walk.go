package instrument

import (
	"go/ast"
	"go/token"
)

// walk visits n, recording the edits of every operation inside it. A
// handler that rewrites a node walks the parts of the node it keeps.
func (r *rewriter) walk(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, r.visit)
}

func (r *rewriter) walkList(list []ast.Expr) {
	for _, e := range list {
		r.walk(e)
	}
}

func (r *rewriter) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.GoStmt:
		r.goStmt(n)
		return false
	case *ast.SelectStmt:
		r.selectStmt(n, nil)
		return false
	case *ast.LabeledStmt:
		if sel, ok := n.Stmt.(*ast.SelectStmt); ok {
			r.selectStmt(sel, n)
			return false
		}
	case *ast.RangeStmt:
		if chanElem(r.typeOf(n.X)) != nil {
			r.rangeChan(n)
			return false
		}
		r.rangeOver(n)
	case *ast.SendStmt:
		r.send(n)
		return false
	case *ast.AssignStmt:
		r.markCommaOk(n.Lhs, n.Rhs)
	case *ast.ValueSpec:
		if len(n.Names) == 2 {
			r.markCommaOk([]ast.Expr{n.Names[0], n.Names[1]}, n.Values)
		}
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			r.recv(n)
			return false
		}
	case *ast.CallExpr:
		if rw := r.mapCall(n); rw != nil {
			r.replace(n, r.renderCall(rw)...)
			rw.walkArgs(r)
			return false
		}
		r.walkCallee(n.Fun)
		r.walkList(n.Args)
		return false
	case *ast.SelectorExpr:
		if r.methodValue(n) {
			return false
		}
		r.walk(n.X)
		return false
	case *ast.Ident:
		r.funcValue(n, n)
		return false
	}
	return true
}

// walkCallee walks the function expression of a call that is not itself
// rewritten: a method selector there is a call, not a method value.
func (r *rewriter) walkCallee(fun ast.Expr) {
	switch f := unparen(fun).(type) {
	case *ast.SelectorExpr:
		r.walk(f.X)
	case *ast.Ident:
	case *ast.IndexExpr:
		r.walkCallee(f.X)
		r.walk(f.Index)
	case *ast.IndexListExpr:
		r.walkCallee(f.X)
		r.walkList(f.Indices)
	default:
		r.walk(fun)
	}
}

// markCommaOk marks a receive assigned to two values as a comma-ok
// receive.
func (r *rewriter) markCommaOk(lhs, rhs []ast.Expr) {
	if len(lhs) != 2 || len(rhs) != 1 {
		return
	}
	if u, ok := unparen(rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		r.recv2[u] = true
	}
}
