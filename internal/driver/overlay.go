package driver

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// writeOverlay writes the go command's -overlay file for replace (original
// file -> instrumented file) into the cache, named by its content so that
// an unchanged overlay is written once, and returns its path.
func writeOverlay(cacheDir string, replace map[string]string) (string, error) {
	b, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", fmt.Errorf("encoding the overlay: %w", err)
	}
	h := hashBytes(b)
	path := filepath.Join(cacheDir, "overlay", h[:32]+".json")
	if err := writeFileAtomic(path, append(b, '\n')); err != nil {
		return "", fmt.Errorf("writing the overlay: %w", err)
	}
	return path, nil
}
