//go:build go1.24

package rt

import (
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// randSeedNop reports whether rand.Seed does nothing in this program: from
// Go 1.24 on it does nothing unless the GODEBUG setting randseednop is 0,
// in the environment or in the program's default (which the go line of
// its go.mod and its //go:debug directives set: a module older than 1.24
// has randseednop=0).
var randSeedNop = sync.OnceValue(func() bool {
	if v, ok := godebugSetting(os.Getenv("GODEBUG"), "randseednop"); ok {
		return v != "0"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key != "DefaultGODEBUG" {
				continue
			}
			if v, ok := godebugSetting(s.Value, "randseednop"); ok {
				return v != "0"
			}
		}
	}
	return true
})

// godebugSetting returns the value of key in the GODEBUG list s
// ("k=v,k=v"), where the last setting of a key wins.
func godebugSetting(s, key string) (value string, ok bool) {
	for _, kv := range strings.Split(s, ",") {
		if k, v, found := strings.Cut(kv, "="); found && strings.TrimSpace(k) == key {
			value, ok = v, true
		}
	}
	return value, ok
}
