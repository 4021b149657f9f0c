//go:build unix

package repo

import "golang.org/x/sys/unix"

// Temporary: the platform layer's unlinkAt and renameAt (h11 moves them to
// fsys_unix.go; this file goes at that merge).

// unlinkAt removes the file (never a directory) name in d.
func unlinkAt(d *workDir, name string) error { return unix.Unlinkat(d.fd(), name, 0) }

// renameAt renames from to to inside d atomically, replacing to.
func renameAt(d *workDir, from, to string) error {
	return unix.Renameat(d.fd(), from, d.fd(), to)
}
