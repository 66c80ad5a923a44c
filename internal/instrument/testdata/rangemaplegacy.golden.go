//go:build go1.22

// Before Go 1.23 a file cannot range over a function: a range over a map
// stays native.
package rangemaplegacy

func Sum(m map[string]int) int {
	sum := 0
	for _, v := range m {
		sum += v
	}
	return sum
}
