package packidx_test

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/packidx"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// benchSpec is a repository of ~106,000 objects in one pack written by git
// gc: 100,000 files and two commits changing 2,000 of them. It is generated
// once and kept under os.TempDir() (packtest.Cached says how to remove it).
var benchSpec = packtest.Spec{Files: 100000, Commits: 2, Touch: 2000, GC: true}

// benchVersion names the cached repository; bump it when benchSpec or the
// generator changes meaning.
const benchVersion = "v1"

type reader interface {
	EncodedObject(plumbing.ObjectType, plumbing.Hash) (plumbing.EncodedObject, error)
}

// readPath reads what one edit reads: HEAD's commit, the trees along one
// path (root, d054, d054/s3) and the blob at its end.
func readPath(b *testing.B, s reader, head plumbing.Hash, path string) {
	o, err := s.EncodedObject(plumbing.CommitObject, head)
	if err != nil {
		b.Fatal(err)
	}
	var c object.Commit
	if err := c.Decode(o); err != nil {
		b.Fatal(err)
	}
	h := c.TreeHash
	for _, name := range strings.Split(path, "/") {
		o, err := s.EncodedObject(plumbing.TreeObject, h)
		if err != nil {
			b.Fatal(err)
		}
		var t object.Tree
		if err := t.Decode(o); err != nil {
			b.Fatal(err)
		}
		e, err := t.FindEntry(name)
		if err != nil {
			b.Fatal(err)
		}
		h = e.Hash
	}
	o, err = s.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		b.Fatal(err)
	}
	r, _ := o.Reader()
	if n, err := io.Copy(io.Discard, r); err != nil || n == 0 {
		b.Fatal(n, err)
	}
	r.Close()
}

// BenchmarkColdRead compares, side by side, a cold open-and-read of one
// edit's objects through go-git's filesystem storage and through a
// packidx.Store: each iteration opens a new storage, as each `git-edit call`
// process does. (The OS page cache is warm in both.)
func BenchmarkColdRead(b *testing.B) {
	dir, err := packtest.Cached(benchVersion, benchSpec)
	if err != nil {
		b.Fatal(err)
	}
	out, err := packtest.Git(dir, nil, "rev-parse", "HEAD")
	if err != nil {
		b.Fatal(err)
	}
	head := plumbing.NewHash(strings.TrimSpace(out))
	path := packtest.Path(54321)
	gitDir := filepath.Join(dir, ".git")
	b.Run("go-git", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := filesystem.NewStorage(osfs.New(gitDir), cache.NewObjectLRUDefault())
			readPath(b, st, head, path)
			st.Close()
		}
	})
	b.Run("packidx", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := packidx.New(filepath.Join(gitDir, "objects"))
			readPath(b, st, head, path)
			st.Close()
		}
	})
}
