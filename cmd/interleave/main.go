// Command interleave runs Go tests under fully controlled interleavings.
//
// Usage:
//
//	interleave test [flags] [packages]     explore the tests of packages
//	interleave replay [flags] FILE         run a recorded schedule again
//	interleave view [flags] FILE           write the HTML page of its finding
//	interleave regress [flags] FILE [pkgs] was the bug really fixed?
//	interleave merge [-o DIR] DIR...       combine the results of shards
//	interleave bench [flags] [kernels]     measure the strategies on the bug kernels
//	interleave bench -diff [flags]         differential testing on generated programs
//	interleave help [command]              show help
//	interleave version                     show the version
//
// See "interleave help test" for the flags. The exit status is 0 when every
// test passed, 1 when a test failed or a finding was reported, and 2 for a
// usage error or a package that does not build.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"interleave.dev"
	"interleave.dev/internal/bench"
	"interleave.dev/internal/difftest"
	"interleave.dev/internal/driver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return 2
	}
	switch args[0] {
	case "test":
		return runTest(ctx, args[1:], stdout, stderr)
	case "replay":
		return runReplay(ctx, args[1:], stdout, stderr)
	case "view":
		return runView(ctx, args[1:], stdout, stderr)
	case "regress":
		return runRegress(ctx, args[1:], stdout, stderr)
	case "merge":
		return runMerge(args[1:], stdout, stderr)
	case "bench":
		if len(args) > 1 && (args[1] == "-diff" || args[1] == "--diff") {
			return difftest.Main(ctx, args[2:], stdout, stderr, benchBuilder(), func(ctx context.Context) (string, error) {
				cache, err := driver.CacheDir()
				if err != nil {
					return "", err
				}
				return driver.BuildSolver(ctx, cache, interleave.SolverSource, os.Environ())
			})
		}
		return bench.Main(ctx, args[1:], stdout, stderr, benchBuilder())
	case "help", "-h", "-help", "--help":
		return runHelp(args[1:], stdout, stderr)
	case "version", "-version", "--version":
		return runVersion(stdout, stderr)
	default:
		fmt.Fprintf(stderr, "interleave %s: unknown command\n%s", args[0], mainUsage)
		return 2
	}
}

// benchBuilder builds the instrumented test binaries of interleave bench,
// as interleave test builds them.
func benchBuilder() *bench.DriverBuilder {
	return &bench.DriverBuilder{Instrument: instrumentFile, InstrumentMain: instrumentMainFile, GoFlags: []string{"-p=1"}}
}
