package ops

import "github.com/git-edit/git-edit/diffview"

// ConfigDiff is the unified diff, with git's headers and 3 lines of context,
// that turns a file at path from old into new; a side whose exists is
// false is /dev/null (a file created or removed). It is "" when nothing
// changes. `git edit install --dry-run` shows what it would write with it.
func ConfigDiff(path string, old []byte, oldExists bool, new []byte, newExists bool) string {
	return diffview.FileChange(
		diffview.Side{Path: path, Content: old, Exists: oldExists},
		diffview.Side{Path: path, Content: new, Exists: newExists}, 3)
}
