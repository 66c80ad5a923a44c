package explore

import (
	"math"
	"reflect"
	"testing"
)

// TestFuzzInputRoundTrip encodes a value of every type go test fuzzes in
// its corpus file format and decodes it back.
func TestFuzzInputRoundTrip(t *testing.T) {
	values := []any{
		"a\"b\n", []byte{0, 'x', 0xff}, true, byte('z'), rune('é'), int(-3), int8(-8), int16(16),
		int64(math.MinInt64), uint(7), uint16(65535), uint32(1 << 31), uint64(math.MaxUint64),
		float32(1.5), float64(-2.25e-300), math.Inf(1), float32(math.Inf(-1)),
	}
	args := make([]reflect.Value, len(values))
	types := make([]reflect.Type, len(values))
	for i, v := range values {
		args[i], types[i] = reflect.ValueOf(v), reflect.TypeOf(v)
	}
	lines, err := encodeInput(args)
	if err != nil {
		t.Fatal(err)
	}
	if lines[0] != `string("a\"b\n")` || lines[3] != `byte('z')` || lines[5] != `int(-3)` {
		t.Errorf("not go test's corpus format: %q", lines)
	}
	got, err := decodeInput(lines, types)
	if err != nil {
		t.Fatal(err)
	}
	for i := range values {
		if !reflect.DeepEqual(got[i].Interface(), values[i]) {
			t.Errorf("%s: decoded %#v, want %#v", lines[i], got[i].Interface(), values[i])
		}
	}
	nan, err := encodeInput([]reflect.Value{reflect.ValueOf(math.NaN())})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := decodeInput(nan, []reflect.Type{reflect.TypeOf(0.0)}); err != nil || !math.IsNaN(v[0].Float()) {
		t.Errorf("NaN: %q decoded to %v, %v", nan, v, err)
	}
}

// TestFuzzInputErrors checks that what does not fit is an error.
func TestFuzzInputErrors(t *testing.T) {
	intT := []reflect.Type{reflect.TypeOf(0)}
	for _, lines := range [][]string{{"int(x)"}, {"int"}, {"complex(1)"}, {`string("a")`}, {"int(1)", "int(2)"}, {"int8(300)"}} {
		typ := intT
		if lines[0] == "int8(300)" {
			typ = []reflect.Type{reflect.TypeOf(int8(0))}
		}
		if _, err := decodeInput(lines, typ); err == nil {
			t.Errorf("%q decoded without an error", lines)
		}
	}
	if _, err := encodeInput([]reflect.Value{reflect.ValueOf(struct{}{})}); err == nil {
		t.Error("a struct argument encoded without an error")
	}
}
