package repo

import (
	"os"
	"path/filepath"
	"strings"
)

// symlinkBelow finds the first directory of abs below from (both clean
// and absolute) that is a symlink, with its destination. abs not lexically
// under from is no finding.
func symlinkBelow(from, abs string) (link, dest string, ok bool) {
	rel, err := filepath.Rel(from, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i := 1; i < len(parts); i++ {
		dir := filepath.Join(append([]string{from}, parts[:i]...)...)
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			dest, _ := os.Readlink(dir)
			return filepath.ToSlash(filepath.Join(parts[:i]...)), dest, true
		}
	}
	return "", "", false
}
