// Before Go 1.23 a file cannot range over a function: a range over a map
// or over a slice with a value variable stays native, and reports what
// each iteration reads at the start of its body when the operand is a
// local variable the body does not assign.
package memformslegacy

type list struct{ items []int }

func Ranges(xs []int, m map[string]int, p *[3]int, l *list) (n int) {
	for _, x := range xs {
		n += x
	}
	for i, x := range xs {
		n += i * x
	}
	var i, x int
	for i, x = range xs {
		n += i * x
	}
	for _, x = range xs { // no index to name the element with
		n += x
	}
	for k := range m {
		n += len(k)
	}
	for _, v := range p {
		n += v
	}
	for _, v := range l.items { // not a local variable: the header only
		n += v
	}
	for _, v := range xs {
		xs = nil // assigned in the body
		n += v
	}
	return n
}
