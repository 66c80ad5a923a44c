package rt

import (
	"reflect"
	"testing"

	"interleave.dev/rt/internal/explore"
)

// FuzzBody runs body, the original body of a fuzz function literal
// f.Fuzz(func(t *testing.T, args...) { body }), whose parameters in
// points to. Go calls the fuzz function once per input of the seed corpus
// (f.Add and testdata/fuzz/FuzzXxx), each a subtest; under the driver each
// of those calls is explored like a test, many times under different
// interleavings, and a finding's schedule file records the input (in go
// test's corpus file format), which a replay gives the body instead of the
// corpus's. The instrumenter rewrites the literal into
//
//	func(t *testing.T, args...) { rt.FuzzBody(t, func(t *testing.T) { body }, &args...) }
//
// With -fuzz, the inputs the fuzzing engine generates run in its worker
// processes without the driver's configuration, natively.
func FuzzBody(t *testing.T, body func(t *testing.T), in ...any) {
	t.Helper()
	takeTestTail()
	args := make([]reflect.Value, len(in))
	for i, p := range in {
		args[i] = reflect.ValueOf(p).Elem()
	}
	explore.Fuzz(t, func() { runTest(t, body) }, func() { body(t) }, args)
}

// FFuzz replaces f.Fuzz(ff) where ff is not a function literal (see
// FuzzBody, which a literal's body calls): it calls f.Fuzz with a function
// of ff's type that runs ff through FuzzBody.
func FFuzz(f *testing.F, ff any) {
	f.Helper()
	fv := reflect.ValueOf(ff)
	if fv.Kind() != reflect.Func || fv.Type().NumIn() < 1 || fv.Type().In(0) != reflect.TypeOf((*testing.T)(nil)) {
		f.Fuzz(ff) // testing reports the misuse as it does
		return
	}
	wrapper := reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
		t := args[0].Interface().(*testing.T)
		ptrs := make([]any, len(args)-1)
		for i, a := range args[1:] {
			p := reflect.New(a.Type())
			p.Elem().Set(a)
			ptrs[i] = p.Interface()
		}
		FuzzBody(t, func(t *testing.T) {
			in := []reflect.Value{reflect.ValueOf(t)}
			for _, p := range ptrs {
				in = append(in, reflect.ValueOf(p).Elem())
			}
			fv.Call(in)
		}, ptrs...)
		return nil
	})
	f.Fuzz(wrapper.Interface())
}
