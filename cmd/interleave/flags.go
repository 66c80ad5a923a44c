package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// goBoolFlags are the go test and build flags without a value that pass
// through to go test.
var goBoolFlags = []string{
	"a", "n", "x", "work", "cover", "msan", "asan", "linkshared", "modcacherw",
	"trimpath", "benchmem", "fullpath", "short", "c", "json", "failfast",
	"v", "buildvcs", "artifacts",
}

// goValueFlags are the go test and build flags with a value that pass
// through to go test.
var goValueFlags = []string{
	"p", "covermode", "coverpkg", "coverprofile", "asmflags", "buildmode",
	"compiler", "gccgoflags", "gcflags", "installsuffix", "ldflags", "mod",
	"pgo", "pkgdir", "toolexec", "o", "exec", "vet", "bench", "benchtime",
	"blockprofile", "blockprofilerate", "count", "cpu", "cpuprofile", "fuzz",
	"fuzzminimizetime", "fuzztime", "list", "memprofile", "memprofilerate",
	"mutexprofile", "mutexprofilefraction", "outputdir", "parallel", "run",
	"shuffle", "skip", "timeout", "trace",
}

// testBinaryFlags are the go test flags that also have a "test." form
// ("-test.run"), which go test accepts too.
var testBinaryFlags = map[string]bool{
	"bench": true, "benchmem": true, "benchtime": true, "blockprofile": true,
	"blockprofilerate": true, "count": true, "coverprofile": true, "cpu": true,
	"cpuprofile": true, "failfast": true, "fullpath": true, "fuzz": true,
	"fuzzminimizetime": true, "fuzztime": true, "list": true, "memprofile": true,
	"memprofilerate": true, "mutexprofile": true, "mutexprofilefraction": true,
	"outputdir": true, "parallel": true, "run": true, "short": true,
	"shuffle": true, "skip": true, "timeout": true, "trace": true, "v": true,
}

// reservedFlags are go test flags the tool sets itself.
var reservedFlags = []string{"modfile", "overlay"}

// passFlag is a flag.Value that records "-name=value" for go test.
type passFlag struct {
	name   string
	isBool bool
	out    *[]string
}

func (p *passFlag) String() string   { return "" }
func (p *passFlag) IsBoolFlag() bool { return p.isBool }
func (p *passFlag) Set(v string) error {
	*p.out = append(*p.out, "-"+p.name+"="+v)
	return nil
}

// rejectFlag is a flag.Value that refuses a reserved go test flag.
type rejectFlag struct{ name string }

func (r rejectFlag) String() string { return "" }
func (r rejectFlag) Set(string) error {
	return fmt.Errorf("interleave sets -%s itself", r.name)
}

// passThrough defines the go test flags on fs, recording them into out.
// Flags the caller defined first (such as -tags) are skipped.
func passThrough(fs *flag.FlagSet, out *[]string) {
	define := func(n string, isBool bool) {
		if fs.Lookup(n) == nil {
			fs.Var(&passFlag{name: n, isBool: isBool, out: out}, n, "passed to go test")
		}
		if testBinaryFlags[n] {
			fs.Var(&passFlag{name: "test." + n, isBool: isBool, out: out}, "test."+n, "passed to go test")
		}
	}
	for _, n := range goBoolFlags {
		define(n, true)
	}
	for _, n := range goValueFlags {
		define(n, false)
	}
	for _, n := range reservedFlags {
		fs.Var(rejectFlag{n}, n, "reserved")
	}
}

// parseInterspersed parses args with fs, allowing flags after positional
// arguments as go test does ("interleave test ./... -run X"). It returns
// the positional arguments and the arguments after -args.
func parseInterspersed(fs *flag.FlagSet, args []string) (positional, testArgs []string, err error) {
	for i, a := range args {
		if a == "-args" || a == "--args" {
			args, testArgs = args[:i], args[i+1:]
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		rest := fs.Args()
		i := 0
		for i < len(rest) && !strings.HasPrefix(rest[i], "-") {
			positional = append(positional, rest[i])
			i++
		}
		if i == len(rest) {
			return positional, testArgs, nil
		}
		if rest[i] == "--" {
			return append(positional, rest[i+1:]...), testArgs, nil
		}
		args = rest[i:]
	}
}

// newFlagSet returns a FlagSet that prints usage to stderr on error.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return fs
}
