//go:build plan9

package tagged

import "plan9only"

var _ = plan9only.X
