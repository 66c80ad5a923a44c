package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RuntimeModule is the module path of the injected runtime.
const RuntimeModule = "interleave.dev"

// RuntimeImport is the import path instrumented code uses for the runtime.
const RuntimeImport = RuntimeModule + "/rt"

// runtimeGoVersion is the go line of the generated runtime go.mod: the
// oldest language version rt compiles at, so that it can be required by as
// many user modules as possible.
const runtimeGoVersion = "1.21"

// runtimeFiles lists the files of the runtime source tree src (rooted at
// "rt") that belong in the injected module: every file of rt/** except
// tests and testdata, sorted.
func runtimeFiles(src fs.FS) ([]string, error) {
	return sourceFiles(src, "rt")
}

// sourceFiles lists the Go source files (not tests, not testdata) under
// the directories roots of src, sorted.
func sourceFiles(src fs.FS, roots ...string) ([]string, error) {
	var files []string
	for _, root := range roots {
		err := fs.WalkDir(src, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return fs.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("listing the source of %s: %w", root, err)
		}
	}
	sort.Strings(files)
	return files, nil
}

// RuntimeVersion returns the hash that identifies the runtime source src:
// the key of its directory in the cache.
func RuntimeVersion(src fs.FS) (string, error) {
	files, err := runtimeFiles(src)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "interleave runtime module, go %s\n", runtimeGoVersion)
	for _, f := range files {
		b, err := fs.ReadFile(src, f)
		if err != nil {
			return "", fmt.Errorf("reading the runtime source: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// WriteRuntime writes the runtime source src (a tree rooted at "rt", such as
// interleave.RuntimeSource) as a module interleave.dev under
// cacheDir/runtime/<version>, unless it is already there, and returns that
// directory. The module's go.mod declares go 1.21.
func WriteRuntime(cacheDir string, src fs.FS) (string, error) {
	version, err := RuntimeVersion(src)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cacheDir, "runtime", version[:24])
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		markUsed(filepath.Join(dir, "go.mod"))
		return dir, nil
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("creating the runtime cache: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("creating the runtime cache: %w", err)
	}
	defer os.RemoveAll(tmp) // after a successful rename this is a no-op
	files, err := runtimeFiles(src)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		b, err := fs.ReadFile(src, f)
		if err != nil {
			return "", fmt.Errorf("reading the runtime source: %w", err)
		}
		out := filepath.Join(tmp, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", fmt.Errorf("writing the runtime module: %w", err)
		}
		if err := os.WriteFile(out, b, 0o444); err != nil {
			return "", fmt.Errorf("writing the runtime module: %w", err)
		}
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n", RuntimeModule, runtimeGoVersion)
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(gomod), 0o444); err != nil {
		return "", fmt.Errorf("writing the runtime module: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another run may have written the same version meanwhile.
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("installing the runtime module: %w", err)
	}
	return dir, nil
}

// isRuntimePackage reports whether the import path belongs to the runtime
// tree, which is never instrumented.
func isRuntimePackage(importPath string) bool {
	return importPath == RuntimeImport || strings.HasPrefix(importPath, RuntimeImport+"/")
}
