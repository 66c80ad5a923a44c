//go:build go1.21

// Before Go 1.22 the variables of a range over a map are shared by all
// iterations, as those of the three-clause loop it becomes are: every
// iteration writes them.
package rangemapshared

func Capture(m map[string]int, done chan bool) (fs []func() string) {
	for k, v := range m {
		fs = append(fs, func() string { return k })
		go func() { _ = v; done <- true }()
		<-done
	}
	return fs
}

func Blank(m map[string]int) (n int) {
	for _, v := range m {
		n += v
	}
	for k := range m {
		n += len(k)
	}
	return n
}
