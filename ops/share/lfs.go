package share

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/git-edit/git-edit/repo"
)

// lfsPointer matches a git-lfs pointer file as the spec writes it
// (version line, oid, size), and captures the sha256 oid.
var lfsPointer = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\Aversion https://git-lfs\.github\.com/spec/v1\noid sha256:([0-9a-f]{64})\nsize [0-9]+\n`)
})

// lfsContent is what a git-lfs pointer stands for: the object git-lfs
// keeps in <common dir>/lfs/objects/ (or lfs.storage), which its pre-push hook uploads
// beside the pointer. nil when content is no pointer or the object is not
// here (then git-lfs has nothing to upload either).
func lfsContent(r *repo.Repo, content []byte) []byte {
	if len(content) > 1024 || !bytes.HasPrefix(content, []byte("version https://git-lfs")) {
		return nil
	}
	m := lfsPointer().FindSubmatch(content)
	if m == nil {
		return nil
	}
	oid := string(m[1])
	// git-lfs keeps its objects under lfs.storage when it is set
	// (relative to the git dir), else <common dir>/lfs.
	store := filepath.Join(r.CommonDir, "lfs")
	if v, ok, err := r.ConfigValue("lfs", "storage"); err == nil && ok && v != "" {
		if store = v; !filepath.IsAbs(v) {
			store = filepath.Join(r.CommonDir, v)
		}
	}
	b, err := os.ReadFile(filepath.Join(store, "objects", oid[:2], oid[2:4], oid))
	if err != nil || int64(len(b)) > repo.DefaultMaxFileSize {
		return nil
	}
	return b
}
