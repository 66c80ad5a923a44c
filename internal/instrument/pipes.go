package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The halves of an io.Pipe are concrete types (*io.PipeReader,
// *io.PipeWriter) whose methods block natively. io.Pipe() becomes
// rt.IOPipe(site), and calls of their methods become runtime calls
// (syncops.go's tables); what remains is a half converted to an interface
// and handed to code that calls its methods through it (io.ReadAll(pr),
// json.NewEncoder(pw), cmd.Stdin = pr). Every such conversion in the file,
// implicit or explicit, is wrapped:
//
//	io.ReadAll(pr)   -> io.ReadAll(rt.PipeReaderValue(pr))
//	var w io.Writer = pw -> var w io.Writer = rt.PipeWriterValue(pw)
//
// The conversions found are those of call arguments (a conversion
// T(x) included), assignments and declarations, return statements,
// composite literal elements, and sends, to an interface with methods: a
// value stored as any (fmt.Println(pr), a context value) is left as it is,
// since it is more often printed or asserted back to *io.PipeReader. The wrapper's dynamic type is
// the runtime's, not the pipe's: a type assertion back to *io.PipeReader
// fails (docs/limitations.md).

// pipeHalf returns the runtime function that converts a value of type t
// to an interface, or "" when t is not a half of an io.Pipe.
func pipeHalf(t types.Type) string {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return ""
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "io" {
		return ""
	}
	switch named.Obj().Name() {
	case "PipeReader":
		return "PipeReaderValue"
	case "PipeWriter":
		return "PipeWriterValue"
	}
	return ""
}

// pipes wraps every conversion of a half of an io.Pipe to an interface.
func (r *rewriter) pipes() {
	ast.Inspect(r.file, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		tv, ok := r.info.Types[e]
		if !ok || !tv.IsValue() {
			return true
		}
		fn := pipeHalf(tv.Type)
		if fn == "" {
			return true
		}
		if _, inParens := r.parents[e].(*ast.ParenExpr); inParens {
			return true // the parenthesized expression is wrapped
		}
		if target := r.convertedTo(e); target != nil && isInterface(target) && !isEmptyInterface(target) {
			r.edits.wrap(r.off(e.Pos()), r.off(e.End()), r.rt(fn)+"(", ")")
		}
		return true
	})
}

// convertedTo returns the type the value of e is assigned to where it
// stands (a parameter, a variable, a result, an element, a conversion), or
// nil when it is not assigned (an operand, a receiver).
func (r *rewriter) convertedTo(e ast.Expr) types.Type {
	var outer ast.Node = e
	p := r.parents[e]
	for {
		if pe, ok := p.(*ast.ParenExpr); ok {
			outer, p = pe, r.parents[pe]
			continue
		}
		break
	}
	switch p := p.(type) {
	case *ast.CallExpr:
		i := indexOf(p.Args, outer)
		if i < 0 {
			return nil
		}
		ft, ok := r.info.Types[p.Fun]
		if !ok {
			return nil
		}
		if ft.IsType() {
			return ft.Type
		}
		sig, ok := ft.Type.Underlying().(*types.Signature)
		if !ok {
			return nil
		}
		params := sig.Params()
		switch {
		case sig.Variadic() && i >= params.Len()-1:
			last := params.At(params.Len() - 1).Type()
			if p.Ellipsis.IsValid() {
				return last
			}
			if s, ok := last.Underlying().(*types.Slice); ok {
				return s.Elem()
			}
			return nil
		case i < params.Len():
			return params.At(i).Type()
		}
	case *ast.AssignStmt:
		if p.Tok != token.ASSIGN && p.Tok != token.DEFINE || len(p.Lhs) != len(p.Rhs) {
			return nil
		}
		if i := indexOf(p.Rhs, outer); i >= 0 {
			return r.lhsType(p.Lhs[i])
		}
	case *ast.ValueSpec:
		if p.Type == nil {
			return nil
		}
		if indexOf(p.Values, outer) >= 0 {
			return r.typeOf(p.Type)
		}
	case *ast.ReturnStmt:
		i := indexOf(p.Results, outer)
		if i < 0 {
			return nil
		}
		if sig := r.enclosingSig(p); sig != nil && sig.Results().Len() == len(p.Results) {
			return sig.Results().At(i).Type()
		}
	case *ast.SendStmt:
		if p.Value == outer {
			if ch, ok := coreType(r.typeOf(p.Chan)).(*types.Chan); ok {
				return ch.Elem()
			}
		}
	case *ast.KeyValueExpr:
		lit, ok := r.parents[p].(*ast.CompositeLit)
		if !ok {
			return nil
		}
		switch t := coreType(r.typeOf(lit)).(type) {
		case *types.Struct:
			if p.Value != outer {
				return nil
			}
			if id, ok := p.Key.(*ast.Ident); ok {
				if f, ok := r.info.Uses[id].(*types.Var); ok {
					return f.Type()
				}
			}
		case *types.Map:
			if p.Key == outer {
				return t.Key()
			}
			return t.Elem()
		case *types.Slice:
			if p.Value == outer {
				return t.Elem()
			}
		case *types.Array:
			if p.Value == outer {
				return t.Elem()
			}
		}
	case *ast.CompositeLit:
		i := indexOf(p.Elts, outer)
		if i < 0 {
			return nil
		}
		switch t := coreType(r.typeOf(p)).(type) {
		case *types.Struct:
			if i < t.NumFields() {
				return t.Field(i).Type()
			}
		case *types.Slice:
			return t.Elem()
		case *types.Array:
			return t.Elem()
		}
	}
	return nil
}

// lhsType returns the type of the location an assignment's left operand
// names (nil for the blank identifier).
func (r *rewriter) lhsType(e ast.Expr) types.Type {
	if id, ok := e.(*ast.Ident); ok {
		if id.Name == "_" {
			return nil
		}
		if obj := r.info.ObjectOf(id); obj != nil {
			return obj.Type()
		}
	}
	return r.typeOf(e)
}

// enclosingSig returns the signature of the function whose body holds n.
func (r *rewriter) enclosingSig(n ast.Node) *types.Signature {
	for p := r.parents[n]; p != nil; p = r.parents[p] {
		switch f := p.(type) {
		case *ast.FuncLit:
			sig, _ := r.typeOf(f).(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if obj := r.info.Defs[f.Name]; obj != nil {
				sig, _ := obj.Type().(*types.Signature)
				return sig
			}
			return nil
		}
	}
	return nil
}

// isEmptyInterface reports whether t is an interface without methods
// (any): a value stored as one is more often asserted back to its
// concrete type, or printed, than called through an interface.
func isEmptyInterface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() == 0
}

// indexOf returns the index of n in list, or -1.
func indexOf(list []ast.Expr, n ast.Node) int {
	for i, e := range list {
		if e == n {
			return i
		}
	}
	return -1
}

// deadlineMethods are the methods whose deadline argument, computed from
// the virtual clock in instrumented code, the runtime moves to the wall
// clock for a real connection (rt/deadline.go).
var deadlineMethods = map[string]bool{"SetDeadline": true, "SetReadDeadline": true, "SetWriteDeadline": true}

// mapDeadline rewrites c.SetDeadline(t), for a method of package net,
// crypto/tls or os (net.Conn's, *net.TCPConn's, *tls.Conn's, *os.File's),
// into rt.SetDeadline(c, t), and the same for SetReadDeadline and
// SetWriteDeadline.
func (r *rewriter) mapDeadline(call *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection, m *types.Func) *callRW {
	if !deadlineMethods[m.Name()] || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	switch m.Pkg().Path() {
	case "net", "crypto/tls", "os":
	default:
		return nil
	}
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return nil
	}
	if named, ok := types.Unalias(sig.Params().At(0).Type()).(*types.Named); !ok || named.Obj().Pkg() == nil ||
		named.Obj().Pkg().Path() != "time" || named.Obj().Name() != "Time" {
		return nil
	}
	// The receiver down the embedded fields to the first type of the
	// standard library's packages, which has the method (*net.TCPConn has
	// it through an unexported field).
	stdType := func(t types.Type) bool {
		named, ok := types.Unalias(derefType(t)).(*types.Named)
		if !ok || named.Obj().Pkg() == nil {
			return false
		}
		switch named.Obj().Pkg().Path() {
		case "net", "crypto/tls", "os":
			return true
		}
		return false
	}
	recv, _, err := r.receiver(f, sel, stdType)
	if err != nil {
		return nil
	}
	return &callRW{call: call, fn: r.rt(m.Name()), recv: recv, recvExpr: f.X, keep: true}
}
