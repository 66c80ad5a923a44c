//go:build go1.23

package rt

import "math/rand/v2"

// RandV2Uint replaces rand.Uint of math/rand/v2.
func RandV2Uint() uint {
	if r := randV2(); r != nil {
		return r.Uint()
	}
	return rand.Uint()
}
