package explore

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// Fuzz explores a call of a fuzz body (see rt.FuzzBody): run, native and
// the rest as Test, and args the variables of its arguments. When the
// driver replays a schedule of this test that records an input, the
// arguments get that input first.
func Fuzz(t *testing.T, run, native func(), args []reflect.Value) {
	t.Helper()
	if s := replayedSchedule(); s != nil && s.Test == t.Name() && len(s.Input) > 0 {
		types := make([]reflect.Type, len(args))
		for i, a := range args {
			types[i] = a.Type()
		}
		vs, err := decodeInput(s.Input, types)
		if err != nil {
			t.Fatalf("interleave: the schedule's input does not fit %s's fuzz body: %v", t.Name(), err)
		}
		for i, v := range vs {
			args[i].Set(v)
		}
	}
	input, err := encodeInput(args)
	if err != nil {
		t.Fatal(err)
	}
	explore(t, run, native, input, newFuzzArgs(args))
}

// fuzzArgs are the arguments of a fuzz body's call, as variables: the
// integer, boolean, string and []byte ones are strategy mpc's inputs,
// which it sets before each run. seed holds their values at the start,
// the corpus entry's: a worker process serves one run after another with
// the same arguments, and each search it makes starts from the seed, not
// from the last run's input.
type fuzzArgs struct {
	args []reflect.Value
	seed []reflect.Value
}

// newFuzzArgs returns the arguments args, their current values the seed.
func newFuzzArgs(args []reflect.Value) *fuzzArgs {
	f := &fuzzArgs{args: args, seed: make([]reflect.Value, len(args))}
	for i, a := range args {
		v := reflect.New(a.Type()).Elem()
		v.Set(a)
		if a.Kind() == reflect.Slice && a.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes(append([]byte(nil), a.Bytes()...))
		}
		f.seed[i] = v
	}
	return f
}

// minStringInput is the least number of bytes mpc may give a string or
// []byte argument (more when the seed is longer).
const minStringInput = 64

// symbolic reports whether an argument is an input.
func (f *fuzzArgs) symbolic() bool {
	for _, in := range f.inputs() {
		if in.Min < in.Max {
			return true
		}
	}
	return false
}

// inputs describes the arguments as mpc's inputs, from the seed: an
// integer's range is its type's (at most [MinInt64, MaxInt64]), a
// boolean's [0, 1], a string's or []byte's its length's, [0,
// max(len(seed), 64)] (its bytes are inputs of their own, see strings);
// any other argument is fixed (Min == Max == 0).
func (f *fuzzArgs) inputs() []wire.MPCInput {
	ins := make([]wire.MPCInput, len(f.seed))
	for i, a := range f.seed {
		switch a.Kind() {
		case reflect.Bool:
			ins[i] = wire.MPCInput{Min: 0, Max: 1}
			if a.Bool() {
				ins[i].Value = 1
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			bits := uint(a.Type().Bits())
			ins[i] = wire.MPCInput{Min: -1 << (bits - 1), Max: 1<<(bits-1) - 1, Value: a.Int()}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			bits := uint(a.Type().Bits())
			max := uint64(math.MaxInt64)
			if bits < 64 {
				max = 1<<bits - 1
			}
			ins[i] = wire.MPCInput{Min: 0, Max: int64(max), Value: int64(min(a.Uint(), max))}
		case reflect.String, reflect.Slice:
			if b, ok := f.bytes(i); ok {
				ins[i] = wire.MPCInput{Min: 0, Max: int64(max(len(b), minStringInput)), Value: int64(len(b))}
			}
		}
	}
	return ins
}

// bytes returns the seed's bytes of argument i if it is a string or a
// []byte.
func (f *fuzzArgs) bytes(i int) ([]byte, bool) {
	a := f.seed[i]
	switch {
	case a.Kind() == reflect.String:
		return []byte(a.String()), true
	case a.Kind() == reflect.Slice && a.Type().Elem().Kind() == reflect.Uint8:
		return append([]byte(nil), a.Bytes()...), true
	}
	return nil, false
}

// strings returns the arguments that are strings or []byte, with their
// seeds, which strategy mpc starts from.
func (f *fuzzArgs) strings() []strategies.StringInput {
	var ins []strategies.StringInput
	for i := range f.seed {
		if b, ok := f.bytes(i); ok {
			ins = append(ins, strategies.StringInput{Arg: i, Seed: b})
		}
	}
	return ins
}

// set gives the arguments that are inputs the values of m's current run.
func (f *fuzzArgs) set(m *causal.MPC) {
	vs := m.Input()
	for i, a := range f.args {
		if i >= len(vs) {
			return
		}
		switch a.Kind() {
		case reflect.Bool:
			a.SetBool(vs[i] != 0)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			a.SetInt(vs[i])
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			a.SetUint(uint64(vs[i]))
		case reflect.String:
			a.SetString(string(m.Bytes(i)))
		case reflect.Slice:
			if a.Type().Elem().Kind() == reflect.Uint8 {
				a.SetBytes(m.Bytes(i))
			}
		}
	}
}

// encode writes the arguments' values in go test's corpus format.
func (f *fuzzArgs) encode() ([]string, error) { return encodeInput(f.args) }

// replayedSchedule returns the schedule the driver asked to replay, or nil.
func replayedSchedule() *wire.Schedule {
	cfg, ok, err := Config()
	if !ok || err != nil || cfg.Strategy != "replay" {
		return nil
	}
	s, err := wire.ReadSchedule(cfg.Replay)
	if err != nil {
		return nil // exploreTest reports it
	}
	return s
}

// encodeInput writes the arguments of a fuzz body call in go test's
// corpus file format, one value per line.
func encodeInput(args []reflect.Value) ([]string, error) {
	lines := make([]string, len(args))
	for i, a := range args {
		var s string
		switch v := a.Interface().(type) {
		case string:
			s = "string(" + strconv.Quote(v) + ")"
		case []byte:
			s = "[]byte(" + strconv.Quote(string(v)) + ")"
		case bool:
			s = "bool(" + strconv.FormatBool(v) + ")"
		case byte:
			s = "byte(" + strconv.QuoteRune(rune(v)) + ")"
		case rune:
			s = "rune(" + strconv.QuoteRune(v) + ")"
		case int, int8, int16, int64, uint, uint16, uint32, uint64:
			s = fmt.Sprintf("%T(%d)", v, v)
		case float32:
			if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
				s = fmt.Sprintf("math.Float32frombits(0x%x)", math.Float32bits(v))
			} else {
				s = "float32(" + strconv.FormatFloat(float64(v), 'g', -1, 32) + ")"
			}
		case float64:
			if math.IsInf(v, 0) || math.IsNaN(v) {
				s = fmt.Sprintf("math.Float64frombits(0x%x)", math.Float64bits(v))
			} else {
				s = "float64(" + strconv.FormatFloat(v, 'g', -1, 64) + ")"
			}
		default:
			return nil, fmt.Errorf("interleave: fuzz argument %d has type %s, which go test does not fuzz", i+1, a.Type())
		}
		lines[i] = s
	}
	return lines, nil
}

// decodeInput parses lines written by encodeInput into values of the
// given types, the parameters of a fuzz body after its *testing.T.
func decodeInput(lines []string, types []reflect.Type) ([]reflect.Value, error) {
	if len(lines) != len(types) {
		return nil, fmt.Errorf("%d values recorded, the body takes %d", len(lines), len(types))
	}
	args := make([]reflect.Value, len(lines))
	for i, line := range lines {
		v, err := decodeValue(line)
		if err != nil {
			return nil, fmt.Errorf("value %d (%s): %w", i+1, line, err)
		}
		if want := types[i]; v.Type() != want {
			return nil, fmt.Errorf("value %d is %s, the body takes %s", i+1, v.Type(), want)
		}
		args[i] = v
	}
	return args, nil
}

// decodeValue parses one corpus line, such as int(5) or string("a").
func decodeValue(line string) (reflect.Value, error) {
	open := strings.IndexByte(line, '(')
	if open < 0 || !strings.HasSuffix(line, ")") {
		return reflect.Value{}, fmt.Errorf("want type(value)")
	}
	typ, lit := line[:open], line[open+1:len(line)-1]
	switch typ {
	case "string", "[]byte":
		s, err := strconv.Unquote(lit)
		if err != nil {
			return reflect.Value{}, err
		}
		if typ == "string" {
			return reflect.ValueOf(s), nil
		}
		return reflect.ValueOf([]byte(s)), nil
	case "bool":
		b, err := strconv.ParseBool(lit)
		return reflect.ValueOf(b), err
	case "math.Float32frombits", "math.Float64frombits":
		bits, err := strconv.ParseUint(lit, 0, 64)
		if err != nil {
			return reflect.Value{}, err
		}
		if typ == "math.Float32frombits" {
			return reflect.ValueOf(math.Float32frombits(uint32(bits))), nil
		}
		return reflect.ValueOf(math.Float64frombits(bits)), nil
	case "float32", "float64":
		size := 64
		if typ == "float32" {
			size = 32
		}
		f, err := strconv.ParseFloat(lit, size)
		if err != nil {
			return reflect.Value{}, err
		}
		return reflect.ValueOf(f).Convert(kindTypes[typ]), nil
	}
	t, ok := kindTypes[typ]
	if !ok {
		return reflect.Value{}, fmt.Errorf("unknown type %q", typ)
	}
	if strings.HasPrefix(lit, "'") {
		r, err := strconv.Unquote(lit)
		if err != nil || len([]rune(r)) != 1 {
			return reflect.Value{}, fmt.Errorf("bad character literal %s", lit)
		}
		lit = strconv.Itoa(int([]rune(r)[0]))
	}
	v := reflect.New(t).Elem()
	if v.CanInt() {
		n, err := strconv.ParseInt(lit, 0, t.Bits())
		if err != nil {
			return reflect.Value{}, err
		}
		v.SetInt(n)
		return v, nil
	}
	n, err := strconv.ParseUint(lit, 0, t.Bits())
	if err != nil {
		return reflect.Value{}, err
	}
	v.SetUint(n)
	return v, nil
}

// kindTypes are the numeric types of corpus lines, by their names there.
var kindTypes = map[string]reflect.Type{
	"int": reflect.TypeOf(0), "int8": reflect.TypeOf(int8(0)), "int16": reflect.TypeOf(int16(0)),
	"int32": reflect.TypeOf(int32(0)), "rune": reflect.TypeOf(rune(0)), "int64": reflect.TypeOf(int64(0)),
	"uint": reflect.TypeOf(uint(0)), "uint8": reflect.TypeOf(uint8(0)), "byte": reflect.TypeOf(byte(0)),
	"uint16": reflect.TypeOf(uint16(0)), "uint32": reflect.TypeOf(uint32(0)), "uint64": reflect.TypeOf(uint64(0)),
	"float32": reflect.TypeOf(float32(0)), "float64": reflect.TypeOf(float64(0)),
}
