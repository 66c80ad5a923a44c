package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Modeled methods promoted through an embedded field.
//
// A call the rewriter sees, s.Stop() on a struct that embeds *time.Timer,
// becomes a call of the runtime (rt.TimerStop(s.Timer, site)). A call it
// cannot see does not: one through an interface whose dynamic type is the
// struct (clockwork's realTimer{*time.Timer} behind its Timer interface,
// a struct embedding sync.Mutex passed as a sync.Locker) dispatches to the
// promoted method of the standard library, which acts on the real value
// and not on the model: a timer the runtime made is stopped natively (and
// panics, never initialized by Go), a mutex is locked behind the
// scheduler's back. So for each package-level struct type of the file
// that embeds a modeled type directly, the rewriter declares the promoted
// methods it models on the struct itself, each calling the runtime as a
// direct call would: the method sets do not change (same names, same
// signatures, a declared method where a promoted one was), and every
// dynamic call reaches the model.

// promotedModels returns the method declarations, one a line, that make
// the modeled methods promoted through the embedded fields of the file's
// struct types call the runtime.
func (r *rewriter) promotedModels() string {
	var b strings.Builder
	for _, d := range r.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if ts.Assign.IsValid() {
				continue
			}
			for _, m := range r.promotedOf(ts) {
				b.WriteString("\n" + m + "\n")
			}
		}
	}
	return b.String()
}

// promotedOf returns the method declarations for the type ts declares.
func (r *rewriter) promotedOf(ts *ast.TypeSpec) []string {
	obj, ok := r.info.Defs[ts.Name].(*types.TypeName)
	if !ok {
		return nil
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return nil
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	recvType := ts.Name.Name
	if ts.TypeParams != nil {
		var names []string
		for _, f := range ts.TypeParams.List {
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
		}
		recvType += "[" + strings.Join(names, ", ") + "]"
	}
	values := types.NewMethodSet(named)
	all := types.NewMethodSet(types.NewPointer(named))
	var decls []string
	for i := 0; i < all.Len(); i++ {
		sel := all.At(i)
		if len(sel.Index()) != 2 {
			continue
		}
		fld := st.Field(sel.Index()[0])
		m, ok := sel.Obj().(*types.Func)
		if !ok || !fld.Embedded() || m.Pkg() == nil {
			continue
		}
		ent, ok := lookupMethod(m)
		if !ok || ent.value {
			continue
		}
		if d, ok := r.promotedMethod(recvType, values.Lookup(m.Pkg(), m.Name()) != nil, fld, m, sel, ent); ok {
			decls = append(decls, d)
		}
	}
	return decls
}

// promotedMethod returns the declaration of method m of the struct type
// recvType (a value receiver if byValue), promoted through the embedded
// field fld, as a call of the runtime's ent.
func (r *rewriter) promotedMethod(recvType string, byValue bool, fld *types.Var, m *types.Func, sel *types.Selection, ent methodEntry) (string, bool) {
	pos := fld.Pos()
	sig, ok := sel.Type().(*types.Signature)
	if !ok {
		return "", false
	}
	targs := ""
	if named, ok := types.Unalias(derefType(fld.Type())).(*types.Named); ok && named.TypeArgs().Len() > 0 {
		var err error
		if targs, err = r.typeList(named.TypeArgs(), pos); err != nil {
			r.warnf(pos, "promoted method %s left native: %v", m.FullName(), err)
			return "", false
		}
	}
	recvName := r.tmp("Recv")
	arg := recvName + "." + fld.Name()
	switch fld.Type().Underlying().(type) {
	case *types.Pointer, *types.Interface: // sync.Locker's methods take the interface
	default:
		arg = "&" + arg
	}
	site := ""
	if !ent.noSite {
		var ops []operand
		if ent.kind != 0 { // a report names it T.Mutex
			ops = append(ops, operand{kind: ent.kind, dir: anyDir, expr: &ast.SelectorExpr{X: ast.NewIdent(strings.SplitN(recvType, "[", 2)[0]), Sel: ast.NewIdent(fld.Name())}})
		}
		site = r.site(pos, ops...)
	}
	lit, err := r.funcLit(sig, pos, r.rt(ent.rt+targs), arg, site)
	if err != nil {
		r.warnf(pos, "promoted method %s left native: %v", m.FullName(), err)
		return "", false
	}
	recv := recvName + " *" + recvType
	if byValue {
		recv = recvName + " " + recvType
	}
	// The method is at the end of the file; a stack names the field.
	line := "//line " + r.filename + ":" + strconv.Itoa(r.position(pos).Line) + "\n"
	return line + "func (" + recv + ") " + m.Name() + strings.TrimPrefix(lit, "func"), true
}

// declaresPromoted reports whether the promoted method sel selects is one
// promotedModels declares on its type, a package-level struct of this
// package that embeds the modeled type directly: the method expression
// (*T).Lock then reaches the runtime as it is.
func (r *rewriter) declaresPromoted(sel *types.Selection) bool {
	named, ok := types.Unalias(derefType(sel.Recv())).(*types.Named)
	if !ok || len(sel.Index()) != 2 {
		return false
	}
	obj := named.Obj()
	if obj.Pkg() != r.pkg || obj.Parent() != r.pkg.Scope() {
		return false
	}
	_, ok = named.Underlying().(*types.Struct)
	return ok
}
