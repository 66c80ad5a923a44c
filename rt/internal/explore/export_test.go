package explore

// Held reports whether r's search held a timer back for a sleep or a lone
// wait on it (Report.held), for the tests of stallRaces.
func Held(r *Report) bool { return r.held }
