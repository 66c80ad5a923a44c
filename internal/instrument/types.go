package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// importSet knows the imports of a file and the ones generated code adds.
type importSet struct {
	r        *rewriter
	existing map[string]*types.PkgName // import path -> name in the file
	added    map[string]string         // import path -> generated alias
	dropped  map[string]bool           // added imports found unused
}

func newImportSet(r *rewriter) *importSet {
	s := &importSet{r: r, existing: make(map[string]*types.PkgName), added: make(map[string]string), dropped: make(map[string]bool)}
	for _, spec := range r.file.Imports {
		var obj types.Object
		if spec.Name != nil {
			obj = r.info.Defs[spec.Name]
		} else {
			obj = r.info.Implicits[spec]
		}
		pn, ok := obj.(*types.PkgName)
		if !ok || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		if _, dup := s.existing[pn.Imported().Path()]; !dup {
			s.existing[pn.Imported().Path()] = pn
		}
	}
	return s
}

// decls returns the import declarations generated code needs, written to
// follow the package clause on its line.
func (s *importSet) decls() string {
	var b strings.Builder
	fmt.Fprintf(&b, "; import %s %s", rtAlias, quote(s.r.opts.RuntimeImport))
	paths := make([]string, 0, len(s.added))
	for p := range s.added {
		if !s.dropped[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "; import %s %s", s.added[p], quote(p))
	}
	return b.String()
}

// qualifier returns how generated code at pos names package p, adding an
// import if the file has none that is visible there. ok is false if the
// package cannot be imported from here.
func (s *importSet) qualifier(p *types.Package, pos token.Pos) (string, bool) {
	if p == s.r.pkg {
		return "", true
	}
	if pn, ok := s.existing[p.Path()]; ok && s.r.visible(pn, pos) {
		return pn.Name(), true
	}
	if a, ok := s.added[p.Path()]; ok {
		return a, true
	}
	if !importable(s.r.pkg.Path(), p.Path()) {
		return "", false
	}
	a := fmt.Sprintf("__rtpkg%d", len(s.added)+1)
	s.added[p.Path()] = a
	return a, true
}

// importable reports whether package from may import path (internal and
// vendored packages are restricted).
func importable(from, path string) bool {
	if strings.HasPrefix(path, "vendor/") || strings.Contains(path, "/vendor/") {
		return false
	}
	i := strings.LastIndex(path, "/internal/")
	switch {
	case i >= 0:
		parent := path[:i]
		return from == parent || strings.HasPrefix(from, parent+"/")
	case strings.HasPrefix(path, "internal/"):
		return !strings.Contains(from, ".") // only the standard library
	case strings.HasSuffix(path, "/internal"):
		parent := strings.TrimSuffix(path, "/internal")
		return from == parent || strings.HasPrefix(from, parent+"/")
	}
	return true
}

// visible reports whether obj is what its name denotes at pos.
func (r *rewriter) visible(obj types.Object, pos token.Pos) bool {
	scope := r.pkg.Scope().Innermost(pos)
	if scope == nil {
		scope = r.pkg.Scope()
	}
	_, found := scope.LookupParent(obj.Name(), pos)
	return found == obj
}

// typeExpr returns Go source denoting t at pos, or an error saying why t
// cannot be named there.
func (r *rewriter) typeExpr(t types.Type, pos token.Pos) (string, error) {
	if err := r.nameable(t, pos, 0); err != nil {
		return "", err
	}
	var failed error
	s := types.TypeString(t, func(p *types.Package) string {
		q, ok := r.imports.qualifier(p, pos)
		if !ok {
			failed = fmt.Errorf("package %s cannot be imported here", p.Path())
		}
		return q
	})
	if failed != nil {
		return "", failed
	}
	return s, nil
}

// nameable checks that every part of t can be written at pos.
func (r *rewriter) nameable(t types.Type, pos token.Pos, depth int) error {
	if depth > 50 {
		return fmt.Errorf("type too deep")
	}
	d := depth + 1
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 || t.Kind() == types.Invalid {
			return fmt.Errorf("untyped or invalid type %s", t)
		}
		return nil
	case *types.Named:
		if err := r.nameableObj(t.Obj(), pos); err != nil {
			return err
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if err := r.nameable(t.TypeArgs().At(i), pos, d); err != nil {
				return err
			}
		}
		return nil
	case *types.Alias:
		if err := r.nameableObj(t.Obj(), pos); err != nil {
			return err
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if err := r.nameable(t.TypeArgs().At(i), pos, d); err != nil {
				return err
			}
		}
		return nil
	case *types.TypeParam:
		return r.nameableObj(t.Obj(), pos)
	case *types.Pointer:
		return r.nameable(t.Elem(), pos, d)
	case *types.Slice:
		return r.nameable(t.Elem(), pos, d)
	case *types.Array:
		return r.nameable(t.Elem(), pos, d)
	case *types.Chan:
		return r.nameable(t.Elem(), pos, d)
	case *types.Map:
		if err := r.nameable(t.Key(), pos, d); err != nil {
			return err
		}
		return r.nameable(t.Elem(), pos, d)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if err := r.nameable(tup.At(i).Type(), pos, d); err != nil {
					return err
				}
			}
		}
		return nil
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if !f.Exported() && f.Pkg() != r.pkg {
				return fmt.Errorf("struct type with unexported field %s of package %s", f.Name(), f.Pkg().Path())
			}
			if err := r.nameable(f.Type(), pos, d); err != nil {
				return err
			}
		}
		return nil
	case *types.Interface:
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			if !m.Exported() && m.Pkg() != r.pkg {
				return fmt.Errorf("interface type with unexported method %s", m.Name())
			}
			if err := r.nameable(m.Type(), pos, d); err != nil {
				return err
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if err := r.nameable(t.EmbeddedType(i), pos, d); err != nil {
				return err
			}
		}
		return nil
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			if err := r.nameable(t.Term(i).Type(), pos, d); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unsupported type %s", t)
}

func (r *rewriter) nameableObj(obj *types.TypeName, pos token.Pos) error {
	if obj.Pkg() == nil {
		return nil // universe: error, comparable, any
	}
	if obj.Pkg() != r.pkg {
		if !obj.Exported() {
			return fmt.Errorf("unexported type %s.%s", obj.Pkg().Path(), obj.Name())
		}
		return nil
	}
	if obj.Parent() == r.pkg.Scope() {
		if !r.visible(obj, pos) {
			return fmt.Errorf("type %s is shadowed", obj.Name())
		}
		return nil
	}
	if obj.Parent() == nil || !r.visible(obj, pos) {
		return fmt.Errorf("local type %s is not visible", obj.Name())
	}
	return nil
}

// chanElem returns the element type of a channel-typed expression (using
// the core type of type parameters), or nil.
func chanElem(t types.Type) *types.Chan {
	if t == nil {
		return nil
	}
	if c, ok := coreType(t).(*types.Chan); ok {
		return c
	}
	return nil
}

// coreType returns the underlying type of t, or the single underlying
// type of all the types in a type parameter's type set.
func coreType(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	var core types.Type
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		u, isUnion := iface.EmbeddedType(i).(*types.Union)
		if !isUnion {
			et := iface.EmbeddedType(i).Underlying()
			if _, isIface := et.(*types.Interface); isIface {
				continue
			}
			if core == nil {
				core = et
			} else if !types.Identical(core, et) {
				return nil
			}
			continue
		}
		for j := 0; j < u.Len(); j++ {
			ut := u.Term(j).Type().Underlying()
			if core == nil {
				core = ut
			} else if !types.Identical(core, ut) {
				// Directional channel types mix; give up.
				return nil
			}
		}
	}
	return core
}

// unparen strips parentheses.
func unparen(e ast.Expr) ast.Expr { return ast.Unparen(e) }
