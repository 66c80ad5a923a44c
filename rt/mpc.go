package rt

// Branch reports a branch condition of a fuzz body to strategy mpc and
// returns cond. The instrumenter rewrites the condition c of an if or for
// statement in a fuzz body (rt.FuzzBody's function literal and the
// literals inside it) into rt.Branch(c, site, sym, leaves...) when c is
// made of integer and boolean operations on the body's inputs, on values
// read from shared memory, and on constants and local values. sym is c
// as a term in prefix form:
//
//	term := INT | "i" K | "m" J ":" TY | "v" J | "(" OP " " term {" " term} ")"
//	TY   := "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "b"
//	OP   := "+" | "-" | "*" | "neg" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "!"
//
// "i" K is the fuzz body's input K (0: the first argument after the
// *testing.T); "m" J is the value of type TY that leaves[J], a pointer,
// points to, which the goroutine has just read (rt.Read); "v" J is the
// concrete value leaves[J]. Under any other strategy Branch only returns
// cond.
func Branch(cond bool, s Site, sym string, leaves ...any) bool {
	return cond
}

// SymWrite reports to strategy mpc the symbolic value, sym (see Branch),
// of the write to *addr that the statement before it made (x = e, x += e,
// x++ in a fuzz body, x shared memory).
func SymWrite(addr any, s Site, sym string, leaves ...any) {}
