package instrument

import (
	"go/ast"
	"go/types"
	"strconv"
)

// Memory accessed by calls.
//
// Builtins and functions of the standard library read and write memory
// that the program passed them, in code that is not instrumented; Go's
// race detector sees those accesses, as the standard library is compiled
// with it. The rewriter reports them at the call, after the operands (see
// collector.addCall), as the race detector would see them:
//
//   - len(m) of a map reads its contents; clear(m) writes them.
//   - clear(s) writes every element of s (rt.WriteSlice).
//   - append(s, x, ...) writes the new elements past the end of s when
//     they fit in its capacity, and otherwise reads every element of s
//     to copy them (rt.Append); append(s, t...) also reads every element
//     of t (rt.ReadSlice).
//   - copy(dst, src) reads the elements of src it copies and writes those
//     of dst (rt.Copy, rt.CopyString).
//   - Functions of packages slices, maps and sort read or write the
//     elements of the slices and the contents of the maps they are given
//     (stdFuncs); a sort is rt.SlicesSort and its kin (rt/sort.go), which
//     write only the elements the sort moved. A function that may stop
//     early (slices.Index,
//     slices.Equal, ...) is reported as reading every element.
//   - A method with a value receiver copies its receiver: called through
//     a pointer (p.M(), or the method value p.M), it reads all of *p.
//     Through an interface holding a pointer, the method of the pointer
//     type does the same; rt.ReadRecv finds out, when the call runs,
//     whether the dynamic type is such a pointer (exported methods only).
//   - The methods of bytes.Buffer and strings.Builder, which are not safe
//     for concurrent use, read or write the whole buffer (stdMethods).
//
// Strings are never written: reading one reads its header only, which
// the rewriter reports like any variable.

// builtin collects the accesses a call of the builtin name makes to
// memory, once its operands are evaluated.
func (c *collector) builtin(name string, e *ast.CallExpr) {
	if len(e.Args) == 0 || len(e.Args) == 1 && isTuple(c.r.typeOf(e.Args[0])) {
		return
	}
	x := e.Args[0]
	slice := func(kind accessKind) {
		c.addCall(kind, "Slice", e.Args, e.Args[:1], func(t []string) string { return t[0] }, e.Pos())
	}
	switch coreType(c.r.typeOf(x)).(type) {
	case *types.Map:
		switch name {
		case "delete", "clear":
			c.add(writeAccess, x, true)
		case "len":
			c.add(readAccess, x, true)
		}
		return
	case *types.Slice:
		switch name {
		case "clear":
			slice(writeAccess)
		case "append":
			c.appendAccess(e)
		case "copy":
			c.copyAccess(e)
		}
	}
}

// appendAccess collects what append does to the memory of its operands.
func (c *collector) appendAccess(e *ast.CallExpr) {
	fresh := c.fresh(e.Args[0]) // nothing past its end, nothing anyone else reaches
	if !e.Ellipsis.IsValid() {
		n := strconv.Itoa(len(e.Args) - 1)
		if len(e.Args) > 1 && !fresh {
			c.addCall(writeAccess, "Append", e.Args, e.Args[:1], func(t []string) string { return t[0] + ", " + n }, e.Pos())
		}
		return
	}
	if len(e.Args) != 2 {
		return
	}
	t := e.Args[1]
	if !fresh {
		c.addCall(writeAccess, "Append", e.Args, e.Args, func(t []string) string { return t[0] + ", len(" + t[1] + ")" }, e.Pos())
	}
	if _, ok := coreType(c.r.typeOf(t)).(*types.Slice); ok && !c.fresh(t) {
		c.addCall(readAccess, "Slice", e.Args, e.Args[1:], func(t []string) string { return t[0] }, e.Pos())
	}
}

// copyAccess collects what copy does to the memory of its operands.
func (c *collector) copyAccess(e *ast.CallExpr) {
	if len(e.Args) != 2 {
		return
	}
	form := "Copy"
	if b, ok := coreType(c.r.typeOf(e.Args[1])).(*types.Basic); ok && b.Info()&types.IsString != 0 {
		if c.fresh(e.Args[0]) {
			return
		}
		form = "CopyString"
	}
	c.addCall(writeAccess, form, e.Args, e.Args, func(t []string) string { return t[0] + ", " + t[1] }, e.Pos())
}

// fresh reports whether the slice e has just been made, so that no other
// goroutine can reach its elements: a composite literal, a call of make,
// or a conversion of a string, of nil or of a fresh slice.
func (c *collector) fresh(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		if tv, ok := c.r.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			if b, ok := coreType(c.r.typeOf(e.Args[0])).(*types.Basic); ok && b.Info()&types.IsString != 0 {
				return true
			}
			return c.r.isConst(e.Args[0]) || c.fresh(e.Args[0])
		}
		if id, ok := unparen(e.Fun).(*ast.Ident); ok {
			if b, ok := c.r.info.Uses[id].(*types.Builtin); ok && b.Name() == "make" {
				return true
			}
		}
	}
	return false
}

// receiver collects the accesses of evaluating the receiver of a method
// value or call x.M: a pointer method of an addressable value takes its
// address; anything else evaluates x.
func (c *collector) receiver(e *ast.SelectorExpr, sel *types.Selection) {
	if takesAddress(c.r, sel, e.X) {
		c.base(e.X)
	} else {
		c.read(e.X)
	}
}

// recvEffects collects what the method selected by e does to memory when
// the method value is evaluated (call nil) or the method called: the
// copy of a value receiver reached through a pointer, the receiver of a
// method through an interface (rt.ReadRecv), the buffer of a method of
// stdMethods. A go or defer statement copies the receiver when it is
// executed, and calls the method later: only the copy is reported.
func (c *collector) recvEffects(e *ast.SelectorExpr, sel *types.Selection, call *ast.CallExpr) {
	m, ok := sel.Obj().(*types.Func)
	if !ok {
		return
	}
	if _, isTP := types.Unalias(derefType(c.r.typeOf(e.X))).(*types.TypeParam); isTP {
		return // which method is called depends on the instantiation
	}
	ops := []ast.Expr{e.X}
	if call != nil {
		if len(call.Args) == 1 && isTuple(c.r.typeOf(call.Args[0])) {
			return
		}
		ops = append(ops, call.Args...)
	}
	later := call != nil && call == c.deferred // the call of a go or defer statement
	if isInterface(c.r.typeOf(e.X)) {
		if call != nil && !later && m.Exported() && len(sel.Index()) == 1 && !implementedByStd(m) {
			name := strconv.Quote(m.Name())
			c.addCall(readAccess, "ReadRecv", ops, ops[:1], func(t []string) string { return t[0] + ", " + name }, e.Sel.Pos())
		}
		return
	}
	kind, isStd := stdMethod(m)
	if isStd && (call == nil || later) || !isStd && ptrRecv(sel) {
		return // the method value of a pointer method binds the pointer only
	}
	loc, viaPtr, ok := c.recvLoc(e, sel)
	if !ok {
		return
	}
	switch {
	case isStd && (viaPtr || c.sharedLoc(e.X)):
	case !isStd && viaPtr:
		kind = readAccess // the copy of the receiver
	default:
		return // a value receiver copied from a value: evaluating e.X read it
	}
	c.addCall(kind, "", ops, ops[:1], func(t []string) string { return loc(t[0]) }, e.Sel.Pos())
}

// implementedByStd reports whether the interface method m is one whose
// receivers are the standard library's own types, which the rewriter
// replaces by the runtime's models (sync.Locker) or which have pointer
// receivers only (the interfaces of package testing, which only its types
// implement).
func implementedByStd(m *types.Func) bool {
	if m.Pkg() == nil {
		return false // error's Error
	}
	if _, modeled := lookupMethod(m); modeled {
		return true
	}
	return m.Pkg().Path() == "testing"
}

// isInterface reports whether t is an interface type (not a type
// parameter).
func isInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	_, ok := t.Underlying().(*types.Interface)
	return ok
}

// recvLoc returns the address of the value the method selected by e works
// on (the value a value receiver copies; what a pointer receiver points
// to), as a function of the text of e.X, following the embedded fields the
// selection goes through, and whether the path to it goes through a
// pointer. ok is false when it cannot be named: a path through an
// unexported field of another package, or a value that is not
// addressable.
func (c *collector) recvLoc(e *ast.SelectorExpr, sel *types.Selection) (loc func(x string) string, viaPtr, ok bool) {
	t := c.r.typeOf(e.X)
	viaPtr = isPointer(t)
	path := sel.Index()
	fields := ""
	for _, i := range path[:len(path)-1] {
		st, isStruct := derefType(t).Underlying().(*types.Struct)
		if !isStruct {
			return nil, false, false
		}
		fld := st.Field(i)
		if !fld.Exported() && fld.Pkg() != c.r.pkg {
			return nil, false, false
		}
		fields += "." + fld.Name()
		t = fld.Type()
		if isPointer(t) {
			viaPtr = true
		}
	}
	if isInterface(t) {
		return nil, false, false
	}
	sel1 := func(x string) string {
		switch {
		case fields == "":
			return x
		case isPrimary(e.X):
			return x + fields
		}
		return "(" + x + ")" + fields
	}
	if isPointer(t) {
		return sel1, true, true
	}
	if !viaPtr && !c.addressable(e.X) {
		return nil, false, false
	}
	return func(x string) string { return "&" + sel1(x) }, viaPtr, true
}

// isPrimary reports whether e is a primary expression, which a selector
// can follow without parentheses.
func isPrimary(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr, *ast.ParenExpr:
		return true
	}
	return false
}

// stdCall collects what a call of a function of stdFuncs does to the
// memory of its arguments.
func (c *collector) stdCall(e *ast.CallExpr) {
	fn := c.r.calledFunc(e)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	effects, ok := stdFuncs[fn.Pkg().Path()][fn.Name()]
	if !ok || len(e.Args) == 1 && isTuple(c.r.typeOf(e.Args[0])) {
		return
	}
	for _, ef := range effects {
		if ef.grow {
			if len(e.Args) == 2 {
				c.addCall(readAccess, "Grow", e.Args, e.Args, func(t []string) string { return t[0] + ", " + t[1] }, e.Pos())
			}
			continue
		}
		if ef.spread && !e.Ellipsis.IsValid() {
			continue
		}
		for i := ef.arg; i < len(e.Args); i++ {
			a := e.Args[i]
			switch coreType(c.r.typeOf(a)).(type) {
			case *types.Slice:
				if !c.fresh(a) {
					c.addCall(ef.kind, "Slice", e.Args, e.Args[i:i+1], func(t []string) string { return t[0] }, e.Pos())
				}
			case *types.Map:
				c.addCall(ef.kind, "", e.Args, e.Args[i:i+1], func(t []string) string { return t[0] }, e.Pos())
			}
			if !ef.rest {
				break
			}
		}
	}
}

// calledFunc returns the package-level function a call calls by a
// qualified name (pkg.F or pkg.F[T]), or nil.
func (r *rewriter) calledFunc(e *ast.CallExpr) *types.Func {
	fun := unparen(e.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = unparen(f.X)
	case *ast.IndexListExpr:
		fun = unparen(f.X)
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := sel.X.(*ast.Ident); !ok {
		return nil
	} else if _, ok := r.info.Uses[id].(*types.PkgName); !ok {
		return nil
	}
	fn, _ := r.info.Uses[sel.Sel].(*types.Func)
	return fn
}

// An argEffect is what a function of the standard library does to the
// memory of an argument: the elements of a slice, the contents of a map.
type argEffect struct {
	arg    int
	kind   accessKind
	rest   bool // and every argument after it (variadic)
	spread bool // only when the variadic arguments are a spread slice (f(s, t...))
	grow   bool // slices.Grow(s, n): rt.Grow
}

func reads(arg int) argEffect   { return argEffect{arg: arg, kind: readAccess} }
func updates(arg int) argEffect { return argEffect{arg: arg, kind: updateAccess} }
func writes(arg int) argEffect  { return argEffect{arg: arg, kind: writeAccess} }

// stdFuncs maps the functions of the standard library that read or write
// the memory of their arguments to what they do (Go 1.26). Iterators
// (slices.All, maps.Keys, ...) are reported as reading when they are
// made, which is where they are ranged over or collected in the usual
// case.
var stdFuncs = map[string]map[string][]argEffect{
	"slices": {
		"All":              {reads(0)},
		"Backward":         {reads(0)},
		"Values":           {reads(0)},
		"BinarySearch":     {reads(0)},
		"BinarySearchFunc": {reads(0)},
		"Clone":            {reads(0)},
		"Compact":          {updates(0)},
		"CompactFunc":      {updates(0)},
		"Compare":          {reads(0), reads(1)},
		"CompareFunc":      {reads(0), reads(1)},
		"Concat":           {{arg: 0, kind: readAccess, rest: true}},
		"Contains":         {reads(0)},
		"ContainsFunc":     {reads(0)},
		"Delete":           {updates(0)},
		"DeleteFunc":       {updates(0)},
		"Equal":            {reads(0), reads(1)},
		"EqualFunc":        {reads(0), reads(1)},
		"Grow":             {{grow: true}},
		"Index":            {reads(0)},
		"IndexFunc":        {reads(0)},
		"Insert":           {updates(0), {arg: 2, kind: readAccess, spread: true}},
		"IsSorted":         {reads(0)},
		"IsSortedFunc":     {reads(0)},
		"Max":              {reads(0)},
		"MaxFunc":          {reads(0)},
		"Min":              {reads(0)},
		"MinFunc":          {reads(0)},
		"Repeat":           {reads(0)},
		"Replace":          {updates(0), {arg: 3, kind: readAccess, spread: true}},
		"Reverse":          {updates(0)},
	},
	"maps": {
		"All":        {reads(0)},
		"Keys":       {reads(0)},
		"Values":     {reads(0)},
		"Clone":      {reads(0)},
		"Copy":       {writes(0), reads(1)},
		"DeleteFunc": {updates(0)},
		"Equal":      {reads(0), reads(1)},
		"EqualFunc":  {reads(0), reads(1)},
		"Insert":     {updates(0)},
	},
	"sort": {
		"SliceIsSorted":     {reads(0)},
		"IntsAreSorted":     {reads(0)},
		"Float64sAreSorted": {reads(0)},
		"StringsAreSorted":  {reads(0)},
		"SearchInts":        {reads(0)},
		"SearchFloat64s":    {reads(0)},
		"SearchStrings":     {reads(0)},
	},
}

// stdMethod returns what a method of one of the buffers of the standard
// library that are not safe for concurrent use does to the buffer: the
// methods that only look read it, the others update it.
func stdMethod(m *types.Func) (accessKind, bool) {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || m.Pkg() == nil {
		return 0, false
	}
	named, ok := types.Unalias(derefType(sig.Recv().Type())).(*types.Named)
	if !ok {
		return 0, false
	}
	readers, ok := stdMethods[m.Pkg().Path()+"."+named.Obj().Name()]
	if !ok {
		return 0, false
	}
	for _, r := range readers {
		if r == m.Name() {
			return readAccess, true
		}
	}
	return updateAccess, true
}

// stdMethods maps the buffers of the standard library whose methods the
// rewriter reports to the methods that only read them. Each method of
// these reads, or writes, the fields that the others read (the slice of
// bytes and the read offset), so that an access to the whole buffer
// races where Go's race detector sees one; the readers of packages bytes
// and strings are left out, whose methods do not all touch the same
// fields.
var stdMethods = map[string][]string{
	"bytes.Buffer":    {"Available", "AvailableBuffer", "Bytes", "Cap", "Len", "String"},
	"strings.Builder": {"Cap", "Len", "String"},
}
