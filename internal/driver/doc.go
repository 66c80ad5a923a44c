// Package driver runs the tests of a user's packages under interleave.
//
// It is the layer between the command line and the test binary:
//
//  1. it writes the runtime module (interleave.dev/rt) once per version
//     into the cache directory (runtime.go);
//  2. it copies the user's go.mod and go.sum to a temporary -modfile that
//     requires and replaces interleave.dev (modfile.go);
//  3. it loads the packages under test with golang.org/x/tools/go/packages,
//     instruments the packages of the main module (and, on request, of
//     dependency modules), caches the instrumented files by content and
//     writes an overlay.json (load.go, instrument.go, overlay.go);
//  4. it runs "go test -overlay -modfile" with the exploration Config in
//     the environment, passes its output through, and reads back the
//     per-test results (gotest.go, test.go, replay.go).
//
// Nothing in the user's tree is ever written.
package driver
