package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"
)

// Sites. Every operation passes a Site, a small integer naming its source
// position. A rewritten file registers its sites once, in a package-level
// variable appended at its end,
//
//	var __rtSites_<hash of the file name> = __rt.RegisterFile("<original path>", "<operands>", line, col, line, col, ...)
//
// and the k-th operation passes __rtSites_<hash>+k. The variable's name is
// unique among the files of a package (they have distinct base names).
//
// The operands say, one line per site, what each operation acts on as the
// source names it, so that a report can say "Lock on from.mu" rather
// than "Lock on Mutex#3": an empty line for a site without one (a go
// statement, a call of time.Sleep), else a kind and a direction letter
// and the operand's text ("l*from.mu"), the cases of a select separated
// by tabs ("c<done\tc>out"). rt.RegisterFile documents the letters; the
// runtime reads the table only to write a report.

// The kinds of operand (rt.RegisterFile).
const (
	memoryOperand    = 'v'
	lockOperand      = 'l'
	waitGroupOperand = 'w'
	onceOperand      = 'o'
	condOperand      = 'k'
	chanOperand      = 'c'
	syncMapOperand   = 'm'
	poolOperand      = 'p'
)

// The directions of an operand: it names the object of every operation
// of its site, or only of those that read or receive, or write or send.
const (
	anyDir = '*'
	inDir  = '<'
	outDir = '>'
)

// maxOperand is the length, in characters, past which an operand's text
// is shortened: its start and end, joined by an ellipsis.
const maxOperand = 40

// An operand is what an operation acts on.
type operand struct {
	kind, dir byte
	expr      ast.Expr
}

// site registers the site at pos, whose operation acts on ops, and returns
// the expression naming it.
func (r *rewriter) site(pos token.Pos, ops ...operand) string {
	p := r.position(pos)
	k := len(r.sites) / 2
	r.sites = append(r.sites, p.Line, p.Column)
	r.siteNames = append(r.siteNames, operandEntry(ops))
	return fmt.Sprintf("%s+%d", r.sitesVar, k)
}

func (r *rewriter) siteList() string {
	var b bytes.Buffer
	for i := 0; i < len(r.sites); i += 2 {
		fmt.Fprintf(&b, ", %d, %d", r.sites[i], r.sites[i+1])
	}
	return b.String()
}

// nameTable returns the operands of the file's sites, one line a site,
// without the empty lines at the end.
func (r *rewriter) nameTable() string {
	n := len(r.siteNames)
	for n > 0 && r.siteNames[n-1] == "" {
		n--
	}
	return strings.Join(r.siteNames[:n], "\n")
}

// operandEntry renders ops as a line of the table.
func operandEntry(ops []operand) string {
	var parts []string
	for _, op := range ops {
		if op.expr != nil {
			parts = append(parts, string([]byte{op.kind, op.dir})+operandText(op.expr))
		}
	}
	return strings.Join(parts, "\t")
}

// operandText returns e as a report names it: as the source writes it
// (normalized by types.ExprString, & dropped), on one line, and
// shortened when longer than maxOperand characters.
func operandText(e ast.Expr) string {
	e = unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = unparen(u.X)
	}
	s := strings.Map(func(c rune) rune {
		if c < ' ' {
			return ' ' // a raw string's newline or tab
		}
		return c
	}, types.ExprString(e))
	if utf8.RuneCountInString(s) <= maxOperand {
		return s
	}
	rs := []rune(s)
	head := (maxOperand - 1) / 2
	tail := maxOperand - 1 - head
	return string(rs[:head]) + "…" + string(rs[len(rs)-tail:])
}

// receiverOperand returns the operand of a method call or value x.M on
// a modeled type: x, followed by the embedded fields the selection goes
// through (s.Mutex for s.Lock() promoted from an embedded sync.Mutex).
func (r *rewriter) receiverOperand(kind byte, f *ast.SelectorExpr, sel *types.Selection) operand {
	path := sel.Index()
	var x ast.Expr = f.X
	t := r.typeOf(f.X)
	for _, i := range path[:len(path)-1] {
		st, ok := derefType(t).Underlying().(*types.Struct)
		if !ok {
			break
		}
		fld := st.Field(i)
		x = &ast.SelectorExpr{X: x, Sel: ast.NewIdent(fld.Name())}
		t = fld.Type()
	}
	return operand{kind: kind, dir: anyDir, expr: x}
}

// methodOperands returns the operands of the site of a call or value f of
// the modeled method ent: its receiver, when the method acts on it.
func (r *rewriter) methodOperands(ent methodEntry, f *ast.SelectorExpr, sel *types.Selection) []operand {
	if ent.kind == 0 || sel.Kind() != types.MethodVal {
		return nil
	}
	return []operand{r.receiverOperand(ent.kind, f, sel)}
}

// assignedTo returns what the value of e is assigned to, when e is the
// value of an assignment or a variable declaration (x = e, x := e,
// var x = e, and each of a list of them): the channel made by
// make(chan T) is named as its variable is. It returns nil otherwise.
func (r *rewriter) assignedTo(e ast.Expr) ast.Expr {
	switch p := r.parents[e].(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, x := range p.Rhs {
				if x == e && !isBlank(p.Lhs[i]) {
					return p.Lhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for i, x := range p.Values {
				if x == e && p.Names[i].Name != "_" {
					return p.Names[i]
				}
			}
		}
	}
	return nil
}
