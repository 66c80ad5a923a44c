//go:build go1.23

package rt

import "sync"

// MapClear replaces (*sync.Map).Clear.
func MapClear(m *sync.Map, s Site) {
	mapPoint(m, true, s)
	m.Clear()
}
