package driver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The go command refuses overlays of files in the module cache, so an
// instrumented dependency module that lives there is mirrored into the
// cache directory instead: a copy of the module (hard links where the file
// system allows) with its instrumented files written in place, which the
// temporary go.mod points to with "replace path@version => mirror".

// moduleReplace is a replace directive for a mirrored module.
type moduleReplace struct {
	Path, Version string // the module version being replaced
	Dir           string // the mirror
}

// inModCache reports whether file lies in the module cache.
func inModCache(modCache, file string) bool {
	return modCache != "" && strings.HasPrefix(file, modCache+string(filepath.Separator))
}

// mirrorModules moves the entries of replace (original file -> instrumented
// file) that lie in the module cache into mirrors of their modules, and
// returns the replace directives that select the mirrors. modules maps an
// original file to its module.
func mirrorModules(cacheDir, modCache string, replace map[string]string, modules map[string]*packages.Module) ([]moduleReplace, error) {
	// go/packages gives every package its own *packages.Module, so the
	// files are grouped by module version: one mirror holds every
	// instrumented package of a module (a replace directive per package
	// would leave all of them but one native).
	type mirror struct {
		m     *packages.Module
		files map[string]string
	}
	byModule := map[string]*mirror{}
	for orig, inst := range replace {
		if !inModCache(modCache, orig) {
			continue
		}
		m := modules[orig]
		if m == nil || m.Dir == "" {
			return nil, fmt.Errorf("instrumenting %s: no module directory", orig)
		}
		id := m.Path + "@" + m.Version + " " + m.Dir
		if byModule[id] == nil {
			byModule[id] = &mirror{m: m, files: map[string]string{}}
		}
		byModule[id].files[orig] = inst
		delete(replace, orig)
	}
	var out []moduleReplace
	for _, mm := range byModule {
		m := mm.m
		if m.Replace != nil && m.Replace.Version == "" {
			return nil, fmt.Errorf("module %s: cannot instrument a directory replacement inside the module cache", m.Path)
		}
		dir, err := mirrorModule(cacheDir, m, mm.files)
		if err != nil {
			return nil, err
		}
		out = append(out, moduleReplace{Path: m.Path, Version: m.Version, Dir: dir})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Version < out[j].Version
	})
	return out, nil
}

// mirrorModule writes (once) the mirror of module m with files (original ->
// instrumented) replaced, and returns its directory.
func mirrorModule(cacheDir string, m *packages.Module, files map[string]string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "mirror of %s@%s at %s\n", m.Path, m.Version, m.Dir)
	origs := make([]string, 0, len(files))
	for o := range files {
		origs = append(origs, o)
	}
	sort.Strings(origs)
	for _, o := range origs {
		fmt.Fprintf(&b, "%s %s\n", o, files[o]) // instrumented paths are content hashes
	}
	key := hashBytes([]byte(b.String()))
	dir := filepath.Join(cacheDir, "modules", key[:24])
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		markUsed(filepath.Join(dir, "go.mod"))
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("mirroring %s: %w", m.Path, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("mirroring %s: %w", m.Path, err)
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(m.Dir, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(tmp, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if inst, ok := files[p]; ok {
			return copyFile(inst, dst)
		}
		if err := os.Link(p, dst); err == nil {
			return nil
		}
		return copyFile(p, dst)
	})
	if err == nil {
		_, serr := os.Stat(filepath.Join(tmp, "go.mod"))
		if errors.Is(serr, fs.ErrNotExist) {
			// A module without go.mod (pre-modules): give the mirror one.
			err = os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module "+m.Path+"\n"), 0o644)
		}
	}
	if err != nil {
		return "", fmt.Errorf("mirroring %s: %w", m.Path, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("mirroring %s: %w", m.Path, err)
	}
	return dir, nil
}

// copyFile copies the regular file src to dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
