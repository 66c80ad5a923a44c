package z3

/*
#include <z3.h>
*/
import "C"

// statisticNames returns the names of the statistics Z3 keeps for the
// solver's checks (for the tests: they tell which theory solver ran). It
// returns nil on an error, recorded on the Context.
func (s *Solver) statisticNames() []string {
	if !s.usable() {
		return nil
	}
	c := s.c.ctx
	st := C.Z3_solver_get_statistics(c, s.s)
	if !s.c.check("solver_get_statistics") {
		return nil
	}
	C.Z3_stats_inc_ref(c, st)
	defer C.Z3_stats_dec_ref(c, st)
	n := C.Z3_stats_size(c, st)
	names := make([]string, 0, int(n))
	for i := C.uint(0); i < n; i++ {
		names = append(names, C.GoString(C.Z3_stats_get_key(c, st, i)))
	}
	if !s.c.check("stats_get_key") {
		return nil
	}
	return names
}
