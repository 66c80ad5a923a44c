package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"interleave.dev"
)

func TestWriteRuntimeFiltersAndCaches(t *testing.T) {
	src := fstest.MapFS{
		"rt/doc.go":               {Data: []byte("package rt\n")},
		"rt/rt_test.go":           {Data: []byte("package rt\n")},
		"rt/testdata/x.go":        {Data: []byte("package x\n")},
		"rt/internal/s/s.go":      {Data: []byte("package s\n")},
		"rt/internal/s/s_test.go": {Data: []byte("package s\n")},
		"rt/wire/wire.go":         {Data: []byte("package wire\n")},
	}
	cache := t.TempDir()
	dir, err := WriteRuntime(cache, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	want := "go.mod rt/doc.go rt/internal/s/s.go rt/wire/wire.go"
	if strings.Join(got, " ") != want {
		t.Errorf("runtime module files = %v, want %s", got, want)
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if string(mod) != "module interleave.dev\n\ngo 1.21\n" {
		t.Errorf("go.mod = %q", mod)
	}
	// A second write of the same version reuses the directory.
	before, _ := os.Stat(filepath.Join(dir, "rt", "doc.go"))
	dir2, err := WriteRuntime(cache, src)
	if err != nil || dir2 != dir {
		t.Fatalf("second WriteRuntime = %s, %v; want %s", dir2, err, dir)
	}
	after, _ := os.Stat(filepath.Join(dir, "rt", "doc.go"))
	if !after.ModTime().Equal(before.ModTime()) {
		t.Error("second WriteRuntime rewrote the files")
	}
	// Another version goes elsewhere; tests do not change the version.
	src["rt/doc.go"] = &fstest.MapFile{Data: []byte("package rt // v2\n")}
	if dir3, _ := WriteRuntime(cache, src); dir3 == dir {
		t.Error("a changed runtime reused the old directory")
	}
	v1, _ := RuntimeVersion(src)
	src["rt/more_test.go"] = &fstest.MapFile{Data: []byte("package rt\n")}
	if v2, _ := RuntimeVersion(src); v1 != v2 {
		t.Error("a test file changed the runtime version")
	}
}

func TestEmbeddedRuntimeHasTheAPI(t *testing.T) {
	files, err := runtimeFiles(interleave.RuntimeSource)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
		if strings.HasSuffix(f, "_test.go") || strings.Contains(f, "/testdata/") {
			t.Errorf("runtime module would contain %s", f)
		}
	}
	for _, f := range []string{"rt/doc.go", "rt/wire/wire.go"} {
		if !have[f] {
			t.Errorf("embedded runtime lacks %s", f)
		}
	}
}
