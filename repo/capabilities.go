package repo

import (
	"fmt"
	"os"
	"path/filepath"
)

// Caps says which of the mechanisms behind git-edit's guarantees for
// files this build finds in a directory. Where one is missing, the README
// states the weaker guarantee that holds instead (its Safety section), and
// the tests assert that one.
type Caps struct {
	// Exchange: two names swap atomically (renameat2 RENAME_EXCHANGE,
	// renameatx_np RENAME_SWAP). Without it (or with SetNoExchange) a
	// write takes the swap without exchange (swapAside): the name is
	// absent for a moment between two renames.
	Exchange bool
	// Leases: read leases hold off writers (holdOffWriters). Without them,
	// a program that keeps the file open and writes after git-edit's last
	// check writes to the replaced copy.
	Leases bool
	// TrustedClock: the file system stamps files from the clock git-edit
	// reads, so an unchanged file is not hashed again (blobcache.go).
	// Without it every read hashes: slower, never wrong.
	TrustedClock bool
}

// Capabilities probes dir, an existing directory git-edit may write in,
// for the mechanisms of Caps: it creates two files of temporary names
// there, tries to swap them and to take a read lease on one, and removes
// them. It is for tests and diagnostics, not used by git-edit's own
// operations (which try each mechanism where they need it).
func Capabilities(dir string) (Caps, error) {
	d, err := openWorkDir(dir, "", false)
	if err != nil {
		return Caps{}, fmt.Errorf("probe %s: %w", dir, err)
	}
	defer d.Close()
	a, b := tempName("caps"), tempName("caps")
	for _, n := range []string{a, b} {
		f, err := os.OpenFile(filepath.Join(dir, n), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return Caps{}, fmt.Errorf("probe %s: %w", dir, err)
		}
		f.Close()
		defer unlinkAt(d, n)
	}
	c := Caps{Exchange: swapOrNot(d, a, b) == nil, TrustedClock: localClockFS(d.f)}
	if f, err := openFileAt(d, a); err == nil {
		c.Leases = setReadLease(f) == nil
		f.Close()
	}
	return c, nil
}
