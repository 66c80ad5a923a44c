// Package instrument rewrites type-checked Go source so that every
// operation the interleave runtime must see calls package rt instead.
//
// The rewrite is purely source to source: it knows Go syntax and types and
// the rt API, and nothing of strategies or drivers. File rewrites one file,
// Package every file of a go/packages package.
//
// # Positions
//
// The rewrite edits the original text instead of printing a new syntax
// tree. Generated code goes on existing lines, separated by semicolons;
// only the registration of the file's sites is appended at its end. The
// output starts with a //line directive naming the original file, and a
// /*line*/ directive is inserted wherever multi-line text moves, so every
// original token keeps its line: compiler errors, panics, stack traces and
// reports name the user's file and line. The output is valid Go that gofmt
// accepts; it is not gofmt-formatted (formatting would move lines).
//
// # What is rewritten
//
// Every runtime call gets a Site, a small integer naming the operation's
// position; generic runtime functions get explicit type arguments.
//
//   - go f(a, b): the function value and the arguments are evaluated into
//     temporaries, in order, then rt.Go(func() { tmpf(tmpa, tmpb) }, site).
//     Declared functions, function literals and constants need no
//     temporary; go func() { ... }() passes the literal itself.
//   - Channels: make(chan T, n) -> rt.MakeChan[T]; c <- v -> rt.Send[T];
//     <-c in any expression -> rt.Recv[T]; v, ok := <-c (and = and var
//     forms) -> rt.Recv2[T]; close(c) -> rt.Close[T]; len(c) -> rt.Len
//     (cap stays native).
//   - for v := range c -> a loop calling rt.Recv2[T] that breaks when the
//     channel is closed; labels, break and continue keep their meaning,
//     and the range variable is per iteration only from Go 1.22 on, as in
//     the original.
//   - for k, v := range m over a map, in files of Go 1.23 and later ->
//     for k, v := range rt.RangeMap(m, site), whose order under
//     exploration is the schedule's; the statement is otherwise unchanged.
//     Earlier files, which cannot range over a function, get the
//     three-clause loop for it, k, v := rt.RangeMapIter(m, site);
//     it.Next(); { k, v = it.Entry(); body }, with the same entries in the
//     same order; its variables are shared by all iterations before Go
//     1.22 and new in each from Go 1.22 on, as the range's, and
//     for k, v = range m assigns its operands at the start of the body.
//     Maps whose type is a type parameter keep the native range. Both
//     forms report the reads of the map that each step of the range makes.
//   - for i, v := range s over a slice, or a pointer p to an array, with
//     an iteration value, in files of Go 1.23 and later -> for i, v :=
//     range rt.RangeSlice(s, site) (rt.RangeSlice((p)[:], site)), which
//     reports the read of s[i] at the start of iteration i.
//   - select: the shape documented on rt.Select. Channel and send-value
//     expressions are evaluated once, in source order; cases become the
//     cases of a switch on the index of the case taken. Without a default
//     case the last case is the switch's default, so a select that is a
//     terminating statement stays one. A label moves onto the switch (or
//     stays on the block when only goto uses it). select {} blocks in
//     rt.SelectStart(site).Do(false).
//   - sync: Mutex, RWMutex, WaitGroup (including Go), Once, Cond and Map
//     methods, sync.OnceFunc/OnceValue/OnceValues; method values
//     (f := mu.Lock, the receiver evaluated where the value is) and method
//     expressions; methods promoted through embedded fields
//     (s.Lock() -> rt.Lock(&s.Mutex, site)); Lock and Unlock through a
//     sync.Locker (rt.LockerLock, rt.LockerUnlock), which covers Cond.L.
//   - sync/atomic functions and the methods of the typed values
//     (Int32 ... Uintptr, Bool, Pointer[T], Value).
//   - time: Sleep, After, Tick, NewTimer, AfterFunc, NewTicker, Now, Since,
//     Until, Timer.Stop/Reset, Ticker.Stop/Reset. context: WithCancel,
//     WithCancelCause, WithTimeout, WithTimeoutCause, WithDeadline,
//     WithDeadlineCause, AfterFunc, WithoutCancel, Cause. runtime: Gosched,
//     Goexit. testing/synctest: Test, Wait (an exploration is a bubble of
//     its own). iter: Pull, Pull2 (the sequence's coroutine runs as the
//     goroutine that calls next or stop, rt/pull.go). Package functions
//     used as values become function literals.
//   - In-memory pipes (pipes.go): io.Pipe() -> rt.IOPipe(site), which
//     returns real halves whose model the runtime finds by address;
//     methods of *io.PipeReader and *io.PipeWriter (Read, Write, Close,
//     CloseWithError) -> rt.PipeReaderRead(r, b, site) and so on; a half
//     converted to an interface with methods (a call argument, an
//     assignment, a return, a composite literal element, a send, T(x)) ->
//     rt.PipeReaderValue(r) or rt.PipeWriterValue(w), whose methods reach
//     the model. net.Pipe() -> rt.NetPipe(site), two conns of the runtime's.
//   - Deadlines: c.SetDeadline(t), SetReadDeadline, SetWriteDeadline, for a
//     method of package net, crypto/tls or os (through net.Conn, or of
//     *net.TCPConn, *tls.Conn, *os.File...) -> rt.SetDeadline(c, t), which
//     moves a deadline computed from the virtual clock to the wall clock for
//     a real connection. A receiver of the program's type that embeds one
//     is passed down to the embedded field.
//   - Calls that end the process: os.Exit(c) -> rt.Exit(c, site);
//     log.Fatal, Fatalf, Fatalln -> rt.LogFatal(site, args...) and so on;
//     (*log.Logger).Fatal* -> rt.LoggerFatal(l, site, args...) (the
//     site goes first: the functions are variadic). Used as values they
//     stay native.
//   - Nondeterminism: the global functions of math/rand and math/rand/v2
//     (rand.Intn(n) -> rt.RandIntn(n), rand.N[T](n) -> rt.RandV2N[T](n),
//     rand.Seed(s) -> rt.RandSeed(s)),
//     pprof.Do and pprof.SetGoroutineLabels (rt.PprofDo,
//     rt.PprofSetGoroutineLabels).
//   - go.uber.org/goleak: VerifyNone(t, opts...) ->
//     rt.GoleakVerifyNone(goleak.VerifyNone)(t, opts...), and Find the same
//     way: inside an exploration the check does nothing (the runtime's
//     leak detection reports leaks with their schedule), outside it is
//     goleak's; a test that calls them fails on every leak, also one
//     every schedule shows. VerifyTestMain is wrapped too: its package's
//     tests then fail on every leak.
//   - testing: Error(f), Fatal(f), Fail, FailNow, Failed, Log(f), Skip(f),
//     SkipNow, Cleanup, Context on *testing.T, *testing.B and testing.TB
//     (and structs embedding them); Run and Parallel on *testing.T. In a
//     _test.go file, func TestXxx(t *testing.T) { body } becomes
//     func TestXxx(t *testing.T) { rt.Test(t, func(t *testing.T) { body }) }
//     with the body on its lines.
//   - Shared memory: see the comment at the top of memory.go. Before each
//     statement of a statement list, rt.Read(&x, site) and
//     rt.Write(&x, site) for the locations the statement surely accesses
//     and that may be shared (package variables, anything reached through
//     a pointer, slice elements, map contents as rt.Read(m, site), local
//     variables captured by a function literal and assigned after their
//     declaration, unless every such literal is deferred or called where
//     it stands, and local variables whose address is taken).
//     Conditions evaluated repeatedly or conditionally (for conditions,
//     else-if conditions, conditions after an init statement, cases of a
//     switch without a tag, right operands of && and ||) report their
//     accesses where they are evaluated, through a function literal
//     called first: for func() bool { rt.Read(&x, site); return true }() && (cond) {
//     Case values of a switch with a tag (and its tag after an init) use
//     a function literal returning the value: case func() T { ...; return v }():
//     The accesses of a for loop's post statement are reported at the end
//     of the body and before each continue of the loop; from Go 1.22 the
//     post statement runs on the next iteration's copy of the loop
//     variables, so what it does to them is reported as the copy's read.
//     A range statement's writes of the variables it assigns (and, before
//     Go 1.22, of the variables it declares, which all iterations share)
//     are reported at the start of the body. A range over an array, or a
//     pointer to one, with at most one iteration variable does not
//     evaluate its operand and reads nothing; a range over a map reads its
//     contents. Where a range over a slice or a map is not rewritten (see
//     above), its operand a local variable that nothing else can change
//     during the statement, the read each iteration makes is reported at
//     the start of the body, rt.Read(&s[i], site) or rt.Read(m, site),
//     the key variable declared as __rtKn when it was the blank
//     identifier.
//     Builtins, functions of the standard library and methods report, at
//     the call, what they read and write of the memory they are given
//     (see memcalls.go): len(m) reads a map; clear(s) writes the elements
//     of a slice (rt.WriteSlice); append writes past the end or reads to
//     grow (rt.Append), and reads a spread slice (rt.ReadSlice); copy
//     reads and writes elements (rt.Copy, rt.CopyString); functions of
//     packages slices, maps and sort read or write their slices and maps
//     (rt.ReadSlice, rt.UpdateSlice, rt.Grow, rt.Read, rt.Write); a value
//     receiver reached through a pointer is copied (rt.Read(p, site),
//     for the method value p.M too); a method called through an interface
//     copies what a pointer in it points to when its method has a value
//     receiver (rt.ReadRecv(x, "M", site)); the methods of bytes.Buffer
//     and strings.Builder read or update the whole buffer. These are
//     reported after the operands of the call, before the statement, or,
//     when an operand calls a function, by a function literal wrapping
//     the last such operand.
//   - os/exec: (*exec.Cmd).Start, Wait, Run and Output -> rt.CmdStart,
//     rt.CmdWait, rt.CmdRun, rt.CmdOutput, which model the goroutine that
//     copies between the command and a *bytes.Buffer as a goroutine that
//     writes the buffer and that Wait joins. An assignment or var
//     declaration that calls functions or receives reports what it
//     stores, and what it reads outside the operands of its calls, right
//     after itself (an if statement's init: in front of the condition),
//     after the calls, as Go performs them. An access whose address
//     depends on a value the statement computes (s[f()], m[key()].f,
//     get().x) is reported where that value is computed:
//     s[func(v int) int { rt.Write(&s[v], site); return v }(f())] = x
//   - Fuzz bodies, for strategy mpc (see branches.go): in a body wrapped
//     by rt.FuzzBody and the function literals inside it, the condition c
//     of an if or for statement becomes rt.Branch(c, site, sym, vals, ptrs...)
//     when c has type bool, mentions an input or a read of shared memory,
//     and is built only of integer and boolean constants; inputs (integer,
//     boolean, string and []byte parameters the body never assigns nor
//     takes the address of; a string stands for its length, len(s), and
//     s[i] is the byte input term "(@ s i vJ)" whose concrete value,
//     rt.At(s, int64(i)), is a leaf, as is b[i] of a []byte whose bytes
//     are only read (strterms.go); s == "lit" is its length and bytes
//     compared with the constant's); locations of integer or boolean
//     type whose reads are reported
//     right before c is evaluated, with addresses free of side effects
//     (the address is a leaf, in ptrs); and local variables (the value is
//     a leaf, in vals, a []int64 literal or nil: int64(v), or rt.B(v) for
//     a boolean, so that no value is boxed); combined by + - * unary - !
//     comparisons && || and integer conversions; with at most 16 values.
//     sym is c as a term (see rt.Branch). A switch statement on a pure
//     tag with constant cases becomes a switch without a tag whose cases
//     are rt.Branch(tag == (e), ...), and the cases of a switch without
//     a tag are conditions as an if statement's (switches.go). Calls, / %,
//     shifts, bitwise operators, string orderings, floats, maps,
//     variable indexes of memory,
//     a location read twice with a report in between, and, in a right
//     operand of && or ||, a location whose address may panic (p.f, s[0])
//     or whose read is not reported leave c as it is. A statement of such
//     a body x = e, x op= e (op + - *), x++ or x-- that writes shared x of
//     integer or boolean type is followed by rt.SymWrite(&x, site, sym,
//     vals, ptrs...) when e is symbolic that way (for x op= e, e may be a
//     constant: the read of x is a leaf). Nothing else is symbolic:
//     for post statements, init statements, code outside fuzz bodies.
//   - Soundness markers, in the same scope, so that mpc does not claim
//     to have covered every path when a condition escaped it: an if or
//     for condition left as it is that mentions an input, a tracked
//     local, a read of shared memory or a call (not of a builtin, not a
//     conversion) gets rt.Untracked(site) in front of its statement (of
//     the first if of an else-if chain, and of the labels). An integer
//     division or remainder x / y, x % y, x /= y, x %= y in a statement of
//     a statement list, y not constant, gets rt.Branch(y != 0, site,
//     "(!= Y 0)", vals, ptrs...) in front of the statement, after the
//     reports of its reads, when y is symbolic, or rt.Untracked(site) when
//     y is not a term but mentions something tracked (a call, a read that
//     is not a leaf...). A division that the statement may not evaluate
//     right after those reports (in a right operand of && or ||, in the
//     init, post, tag or cases of an if, for, switch or select) gets
//     rt.Untracked when it mentions something tracked.
//   - With Options.Symbolic (the code under test), every function and
//     function literal of the file (see symbolic.go): the same rewrite,
//     and local variables, parameters, call arguments and call results
//     symbolic too.
//     A local of integer or boolean type, not shared, that may hold a
//     symbolic value and that a rewrite mentions is a leaf by its number
//     ("l", reported by rt.SymSet at each assignment; for an if
//     statement's init, in front of its condition: rt.SymSet(...) &&
//     (c)) or, when function literals capture it, by its address ("a",
//     rt.SymSetAt at its declaration); so is a string or []byte parameter
//     nobody assigns. A local assigned a value that is not a term but may
//     depend on what is tracked (a call through a func value) is tracked
//     too, as a concrete value that keeps the search from claiming every
//     path. A function declaration with such a parameter, a function
//     whose terms use a local or a call's result, and one whose return
//     statements report their terms, start with rt.SymEnter("pkg.F",
//     params...) (rt.SymEnter("") for a function literal), which also
//     notes recursion; a call of a function of the package with a
//     symbolic argument wraps its last argument in rt.SymCall[T](arg,
//     "pkg.F", terms, vals, ptrs...), after every call of its arguments.
//     A function declaration with one integer or boolean result (not
//     generic; not one whose named result a deferred call may change)
//     wraps the value of each return statement whose term is known in
//     rt.SymRet[T](e, __rtFrame, sym, vals, ptrs...), __rtFrame being
//     the mark its SymEnter returned; a call of such a function of the
//     package, static, whose receiver and arguments call nothing but
//     such calls, and whose result a term uses where it is always
//     evaluated (not in a right operand of && or ||, not a divisor
//     checked before its statement) becomes rt.SymResult[T](rt.SymMark(
//     "pkg.F"), call, site), and the term's leaf "r" J names it by site.
//     go and defer statements are not wrapped.
//
// An else-if with an init statement becomes else { accesses; if ... },
// which reports the accesses of its init.
//
// A file whose language version predates generics (go1.18) gets a
// //go:build line adding go1.21 to its constraint, which lets it call the
// generic runtime functions and keeps its loop semantics; its own build
// constraint lines become plain comments.
//
// Imports whose every use was rewritten become blank imports, so the
// output compiles without unused imports.
//
// # What is left as it is
//
// Code the rewriter cannot handle is left as it was and reported as a
// Warning, never silently mis-compiled: cgo files and files with their own
// line directives (whole file); modeled functions called through a dot
// import; operations on types the file cannot name (an unexported type of
// another package); explicitly instantiated function values; promoted
// method expressions; a select whose label is the target of both goto and
// break; memory accesses whose address depends on two values computed by
// the statement (a slice returned by a call, indexed by a call) or on a
// value whose type the file cannot name; what a builtin or a function of
// the standard library does to memory when it needs the values of two
// operands the statement computes (append(m[key()], f())), or follows an
// operand that calls a function and whose type the file cannot name;
// modeled calls whose only
// argument is a multi-value call. Not instrumented and not reported: accesses in case values and
// tags whose type cannot be named, and in a
// for loop's post statement when a name of its access paths is shadowed
// in the body or a continue of the loop is itself labeled.
//
// Pure source to source: `instrument.File` takes one parsed, type-checked
// file and returns its rewritten text (unchanged when there is nothing to
// rewrite), plus warnings for what it left alone. It knows Go and the `rt` API
// and nothing of strategies or the driver.
//
//   - Text edits, not reprinting. The original text is edited in place, so
//     every original token keeps its line; the output starts with
//     `//line <original>:1`, and `/*line*/` directives cover text that moves.
//     Panics, compiler errors and reports name the original file and line (a
//     run-time test checks `runtime.Caller` and stack lines).
//   - What it rewrites. Every form of `go` (function value and arguments
//     into temporaries first); channel make, send, receive (every form), close,
//     len, `for range` over channels (keeping labels, and pre-1.22 shared loop
//     variables); `select` into the shape documented on `rt.Select` (channel
//     and value expressions evaluated once, in order, before it); sync,
//     sync/atomic, time, context, runtime and testing calls, `os.Exit`,
//     `log.Fatal*` and `(*log.Logger).Fatal*`, the global functions of
//     `math/rand` and `math/rand/v2` (inside an exploration they draw from a
//     source of the iteration seeded from the exploration's seed and the
//     iteration's number, the seed alone under dfs, so the values are a
//     function of those and the schedule, all in the schedule file;
//     `rand.Seed` seeds that source, unless it does nothing in the program,
//     as from Go 1.24 on unless GODEBUG has `randseednop=0`), `pprof.Do` and `pprof.SetGoroutineLabels` (which would replace the
//     labels that identify a controlled goroutine; inside an exploration the
//     labels go into the context only), `goleak.VerifyNone` and
//     `goleak.Find` (which inside an exploration defer to the runtime's leak
//     detection: goleak would see the explorer's goroutines), including method
//     values, method expressions, promoted methods of embedded fields and calls
//     through `sync.Locker`; `TestXxx` bodies wrapped in `rt.Test`; the
//     body of a fuzz test's function literal (`f.Fuzz(func(t *testing.T,
//     n int) {...})`) wrapped in `rt.FuzzBody`, so each call of it (each
//     input of the seed corpus, `f.Add` and `testdata/fuzz`, a subtest) is
//     explored like a test and a finding's schedule file records the input,
//     which replay uses (a fuzz function that is not a literal goes through
//     `rt.FFuzz`, which wraps it by reflection).
//   - Shared memory. `rt.Read`/`rt.Write` before each statement for
//     package variables, anything reached through a pointer, slice elements,
//     map contents, address-taken locals, and captured locals that are assigned
//     after their declaration (a captured variable never written again cannot
//     race; one captured only by literals that are deferred or called where
//     they stand stays in its goroutine, and on its stack). Conditions that are evaluated repeatedly or conditionally (loop
//     conditions, else-if, right operands of `&&`/`||`, tagless switch cases)
//     report their reads where they are evaluated, through a function literal,
//     so a busy-wait `for !stop {}` has a scheduling point. An access whose
//     address depends on a value computed by the statement (`s[f()]`,
//     `m[key()].f`, `get().next.x`) is reported where that value is computed,
//     by a function literal that takes it and returns it
//     (`s[func(v int) int { rt.Write(&s[v], site); return v }(f())]`), so
//     nothing is evaluated twice. An assignment (or `var`) whose expressions
//     call functions or receive reports what it stores, and what it reads
//     outside the operands of its calls, right after it (an if statement's
//     init: in front of the condition), where Go performs those accesses
//     (`w.r = w.start()` writes `w.r` when `start` has returned). Loop
//     variables follow the file's language version: from Go 1.22 a for
//     loop's post statement runs on the next iteration's copy, so its
//     accesses to the loop variables are reported as the copy's reads;
//     before it, the variables a range statement declares are shared by all
//     iterations, and their writes are reported at the start of the body (as
//     are the writes of variables a range statement assigns in any version).
//     A statement that reads a location and writes it (`x++`, `x += y`,
//     `x = x + 1`) reports `rt.Update`, and a write reported after its
//     statement `rt.Wrote`: both schedule as writes, and tell strategy mcr,
//     which reasons about values, that the old value was read, or that the
//     memory already holds the new one.
//   - Symbolic values, for strategy mpc (`branches.go`, `symbolic.go`).
//     In fuzz bodies, and, with `Options.Symbolic` (which the driver sets for
//     the main module's files: `driver.Options.InstrumentMain`), in every
//     function, an `if` or `for` condition or a switch case made of
//     integer and boolean operations on inputs, shared reads, locals and
//     constants, or comparing a string input with a constant, becomes
//     `rt.Branch(c, site, term, vals, ptrs...)`: the term in prefix form,
//     value leaves in a `[]int64`, pointer leaves after it. Writes of shared
//     memory, of tracked locals and of captured variables report their
//     terms (`rt.SymWrite`, `rt.SymSet`, `rt.SymSetAt`); a static call of a
//     package function passes its arguments' terms (`rt.SymCall` wraps the
//     first argument) to the callee's `rt.SymEnter`; a divisor that is a
//     term is checked as a branch (`!= 0`), and a condition or divisor that
//     depends on tracked values in a way terms cannot say calls
//     `rt.Untracked`. A local is tracked only if it can hold a symbolic value
//     and a rewrite uses it. Outside mpc each call is an inlined check.
//   - Concurrency breakpoints. A comment `//interleave:breakpoint NAME
//     [WAIT]` on a line of its own between two statements becomes
//     `rt.Breakpoint` on that line: inside an exploration the goroutine yields
//     (at most 1000 turns) until another arrives at breakpoint WAIT
//     (`breakpoints.go`, `rt/breakpoint.go`); elsewhere it is left alone with a
//     warning.
//   - Each file registers its sites (`var __rtSites_<hash> =
//     __rt.RegisterFile(file, operands, line, col, ...)`) and every call
//     passes `__rtSites_<hash>+k`. The runtime is imported as `__rt`. The
//     operands, one line a site, name what each operation acts on as the
//     source writes it (the receiver of a Lock, the channel of a send, the
//     variable, field or element of an access: `l*from.mu`, `v*st.m[k]`),
//     so that a report says "Lock on from.mu (Mutex#3)" (sites.go).
//   - Left as it was, with a warning: cgo files, files with their own line
//     directives, dot-imported modeled calls, types the file cannot name, and a
//     few rare forms listed in the package documentation (`doc.go`).
package instrument
