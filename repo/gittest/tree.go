package gittest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TreeSnapshot records every entry under dir, .git included: its type and
// permission bits, owner and group, and a regular file's bytes or a
// symlink's target. Two equal snapshots mean nothing under dir was created,
// removed, rewritten, re-owned or re-moded.
func TreeSnapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		if uid, gid, ok := fileOwner(fi); ok {
			desc += fmt.Sprintf(" %d:%d", uid, gid)
		}
		switch {
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(b)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		}
		rel, _ := filepath.Rel(dir, p)
		snap[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return snap
}

// TreeDiff describes how two TreeSnapshots differ ("" when they are equal),
// one line per path, for test failures.
func TreeDiff(before, after map[string]string) string {
	var lines []string
	for p, a := range after {
		if b, ok := before[p]; !ok {
			lines = append(lines, "created "+p)
		} else if a != b {
			lines = append(lines, "changed "+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			lines = append(lines, "removed "+p)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
