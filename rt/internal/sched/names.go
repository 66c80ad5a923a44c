package sched

import (
	"fmt"
	"slices"
	"strings"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/site"
)

// Names. A report names an object as the source does at the site of the
// event it describes (site.Operands): "from.mu" for the Lock of
// from.mu.Lock(), "st.m[k]" for the read of st.m[k], with the object's
// kind and number kept for identity ("from.mu (Mutex#3)", "from.mu#3"):
// an object reached under several names is named by each event's own
// site. Names are looked up only when a finding is described, never per
// event.

// kindOperand is the kind of operand (site) that names an object of each
// kind; 0 for a timer, which its events name.
var kindOperand = [...]byte{
	kindMemory: site.Memory, kindAtomic: site.Memory, kindMutex: site.Lock, kindRWMutex: site.Lock,
	kindWaitGroup: site.WaitGroup, kindOnce: site.Once, kindCond: site.Cond, kindChan: site.Chan,
	kindMap: site.SyncMap, kindPool: site.Pool,
}

// sourceName returns the name the source gives, at site s, to the object
// of kind k that op acts on, or "" when the site names none, or several
// (two receive cases of a select). The Lock and Unlock of a Cond's Wait
// act on its L.
func sourceName(s uint32, op event.Op, k objKind) string {
	want := kindOperand[k]
	if want == 0 || s == 0 {
		return ""
	}
	name := ""
	for _, o := range site.Operands(s) {
		text := o.Text
		switch {
		case o.Kind == want:
		case o.Kind == site.Cond && want == site.Lock:
			text += ".L"
		default:
			continue
		}
		if o.Dir == site.DirIn && !reads(op) || o.Dir == site.DirOut && reads(op) {
			continue
		}
		if name != "" && name != text {
			return ""
		}
		name = text
	}
	return name
}

// reads reports whether op reads or receives, for the direction of an
// operand.
func reads(op event.Op) bool {
	switch op {
	case event.OpRead, event.OpAtomicLoad, event.OpRecv, event.OpChanLen, event.OpMapRead:
		return true
	}
	return false
}

// objLabel is an object's kind and number, "Mutex#3", or its kind alone
// before any event numbered it.
func objLabel(o *object) string {
	if o.eid == 0 {
		return kindNames[o.kind]
	}
	return fmt.Sprintf("%s#%d", kindNames[o.kind], event.ObjNumber(o.eid))
}

// selectNames names the channels of the select at site s, "st.ch, done",
// or "" when the source names none of them.
func selectNames(s uint32) string {
	var names []string
	for _, o := range site.Operands(s) {
		if o.Kind == site.Chan && !slices.Contains(names, o.Text) {
			names = append(names, o.Text)
		}
	}
	return strings.Join(names, ", ")
}

// kindByName is the kind of each name of kindNames (Finding.Objects).
var kindByName = func() map[string]objKind {
	m := make(map[string]objKind, len(kindNames))
	for k, name := range kindNames {
		m[name] = objKind(k)
	}
	return m
}()

// ObjectName names the object event e acts on, for a report: as the source
// names it at e's site, with the object's number ("from.mu#3"), or by its
// kind where the site names nothing ("Mutex#3"). It returns "" for an
// event without an object to name (a go statement, a timer's events).
func (f *Finding) ObjectName(e event.Event) string {
	kind, ok := f.Objects[e.Obj]
	if e.Obj == 0 || !ok || kind == "" {
		return ""
	}
	n := event.ObjNumber(e.Obj)
	if k, ok := kindByName[kind]; ok {
		if name := sourceName(e.Site, e.Op, k); name != "" {
			return fmt.Sprintf("%s#%d", name, n)
		}
	}
	return fmt.Sprintf("%s#%d", kind, n)
}
