package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The instrumentation cache: instrumented files stored by the hash of their
// content (files/), and per unit an index record (index/) that maps the
// unit's original files to them, keyed by the hash of everything the
// instrumentation depends on (see keyer).

// cachedUnit is the index record of an instrumented unit.
type cachedUnit struct {
	// Replace maps an original file to its instrumented copy in the cache.
	Replace  map[string]string `json:"replace"`
	Warnings []cachedWarning   `json:"warnings,omitempty"`
}

type cachedWarning struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

// storeFile stores an instrumented file in the cache under the hash of its
// content, keeping its base name (the go command reads build constraints
// and the _test suffix from the original name, but error messages and
// tools are clearer with the same name), and returns its path.
func storeFile(cacheDir, base string, content []byte) (string, error) {
	h := hashBytes(content)
	dst := filepath.Join(cacheDir, "files", h[:2], h[2:26], base)
	if _, err := os.Stat(dst); err == nil {
		return dst, nil
	}
	if err := writeFileAtomic(dst, content); err != nil {
		return "", fmt.Errorf("caching an instrumented file: %w", err)
	}
	return dst, nil
}

func indexPath(cacheDir, key string) string {
	return filepath.Join(cacheDir, "index", key[:2], key[2:]+".json")
}

// readIndex returns the cached instrumentation of the unit with key, if
// every file it names is still in the cache.
func readIndex(cacheDir, key string) (*cachedUnit, error) {
	b, err := os.ReadFile(indexPath(cacheDir, key))
	if err != nil {
		return nil, err
	}
	var c cachedUnit
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("corrupt cache entry %s: %w", key, err)
	}
	for _, dst := range c.Replace {
		if _, err := os.Stat(dst); err != nil {
			return nil, errors.Join(fs.ErrNotExist, err)
		}
	}
	markUsed(indexPath(cacheDir, key))
	for _, dst := range c.Replace {
		markUsed(dst)
	}
	return &c, nil
}

func writeIndex(cacheDir, key string, c *cachedUnit) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encoding a cache entry: %w", err)
	}
	return writeFileAtomic(indexPath(cacheDir, key), b)
}
