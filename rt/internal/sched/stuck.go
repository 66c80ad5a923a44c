package sched

import "strings"

// stuckWhere describes, from the stack (in runtime.Stack's format) of a
// goroutine that made no progress in uncontrolled code, what it waits for
// (the Go runtime's wait reason), where, and why the tool cannot see it:
// the function outside package runtime it is in, the nearest caller that
// is not the standard library, and whether that is real I/O, cgo, the
// standard library or code left native.
func stuckWhere(stack string) string {
	lines := strings.Split(strings.TrimSpace(stack), "\n")
	if len(lines) < 3 {
		return ""
	}
	reason := ""
	if i, j := strings.Index(lines[0], "["), strings.LastIndex(lines[0], "]"); i >= 0 && j > i {
		reason, _, _ = strings.Cut(lines[0][i+1:j], ",") // "chan receive, 2 minutes"
	}
	type frame struct{ fn, pos string }
	var frames []frame
	cgo := false
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if k := strings.LastIndex(fn, "("); k > 0 {
			fn = fn[:k]
		}
		pos, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
		if k := strings.LastIndex(pos, "/"); k >= 0 {
			pos = pos[k+1:]
		}
		if fn == "runtime.cgocall" {
			cgo = true
		}
		frames = append(frames, frame{fn, pos})
	}
	var in, from *frame
	for i := range frames {
		f := &frames[i]
		if in == nil && !strings.HasPrefix(f.fn, "runtime.") {
			in = f
		}
		if in != nil && !stdFunc(f.fn) {
			from = f
			break
		}
	}
	if in == nil {
		return ""
	}
	var b strings.Builder
	if reason != "" {
		b.WriteString("the Go runtime says \"" + reason + "\", ")
	}
	b.WriteString("in " + in.fn + " at " + in.pos)
	if from != nil && from != in {
		b.WriteString(", called from " + from.fn + " at " + from.pos)
	}
	switch {
	case reason == "coroutine" && strings.HasPrefix(in.fn, "iter.Pull"):
		// rt.Pull runs the sequence as its caller; iter.Pull left native
		// makes it a goroutine that waits for the schedule its caller
		// holds, while the caller waits for it in the switch.
		b.WriteString(": a sequence pulled with iter.Pull in a call left native (see the instrumenter's warnings and -instrument), whose coroutine waits for the schedule its caller holds")
	case cgo:
		b.WriteString(": a cgo call")
	case reason == "IO wait" || reason == "syscall":
		b.WriteString(": real I/O or a system call")
	case strings.HasPrefix(in.fn, "interleave.dev/rt"):
		b.WriteString(": the tool's own work")
	case stdFunc(in.fn) && from == nil:
		b.WriteString(": the standard library, which is never instrumented")
	case stdFunc(in.fn):
		b.WriteString(": the standard library, which is never instrumented, used natively")
	default:
		b.WriteString(": code that was left native (see the instrumenter's warnings and -instrument)")
	}
	return b.String()
}

// stdFunc reports whether the function named as in a stack trace
// ("sync.(*Mutex).Lock", "golang.org/x/sync/semaphore.(*Weighted).Acquire")
// belongs to the standard library (its import path's first element has no
// dot) or to the tool's own runtime.
func stdFunc(fn string) bool {
	path := fn
	if k := strings.LastIndex(path, "/"); k >= 0 {
		if d := strings.Index(path[k:], "."); d >= 0 {
			path = path[:k+d]
		}
	} else if d := strings.Index(path, "."); d >= 0 {
		path = path[:d]
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") || strings.HasPrefix(path, "interleave.dev/rt")
}

// busyInTool reports whether the goroutine holding the schedule is
// running the tool's own code (accounting for the memory of a large
// copy, building a report): the first frame of its stack outside the Go
// runtime and the standard library is interleave's runtime, and it is
// running or runnable, not blocked (a wait on the garbage collector, as
// "GC assist wait" while the tool allocates, is the runtime's, and ends;
// and a "coroutine" switch in the tool's code is a handoff under way: the
// goroutine or hub it resumed has yet to take the schedule or end the
// iteration). That is not a goroutine stuck in uncontrolled code; the
// budget bounds it.
func (it *Iteration) busyInTool() bool {
	h := it.held.Load()
	if h == nil || h.goid == 0 {
		return false
	}
	for _, e := range strings.Split(string(AllStacks(64<<10)), "\n\n") {
		id, status := parseHeader([]byte(e))
		if id != h.goid {
			continue
		}
		if status != "running" && status != "runnable" && !strings.HasPrefix(status, "GC ") && status != "garbage collection" && status != "coroutine" {
			return false
		}
		lines := strings.Split(e, "\n")
		for i := 1; i < len(lines); i += 2 {
			fn := lines[i]
			if k := strings.LastIndex(fn, "("); k > 0 {
				fn = fn[:k]
			}
			if strings.HasPrefix(fn, "interleave.dev/rt") {
				return true
			}
			if !stdFunc(fn) {
				return false
			}
		}
		return false
	}
	return false
}
