package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync/atomic"
)

// The swap without exchange: where two names cannot be swapped atomically
// (exchange gives errNoExchange: FreeBSD and the other BSDs, macOS off
// APFS and HFS+, NFS and some FUSE file systems on Linux), writeFile ends
// with swapAside. It never renames over the file, so that a save made
// meanwhile cannot be lost; the price is that the name is absent for the
// moment between the two renames (a reader then sees "no such file").

// noExchange makes writeFile take the swap without exchange even where
// exchange works (SetNoExchange).
var noExchange atomic.Bool

// SetNoExchange makes every write take the swap without exchange
// (swapAside), as on a system or file system that cannot swap two names
// atomically, so that the tests of this and other packages run that path
// on Linux too. It returns a function that restores the default. Never
// set outside tests.
func SetNoExchange(on bool) (restore func()) {
	was := noExchange.Swap(on)
	return func() { noExchange.Store(was) }
}

// swapOrNot is exchange, or errNoExchange with nothing changed when
// SetNoExchange asked for the fallback.
func swapOrNot(d *workDir, a, b string) error {
	if noExchange.Load() {
		return errNoExchange
	}
	return exchange(d, a, b)
}

// swapAside puts the temporary file tmp (git-edit's new file, whose info
// is ours; mine holds a read lease on it, or is nil) at name in d in place
// of old, the file checked (checked is its fstat) to hold expect's bytes,
// without an atomic exchange:
//
//  1. name is moved aside, to a fresh temporary name (journaled, so that a
//     crash leaves it to be put back by clearDeadTemps);
//  2. tmp is renamed to name without replacing, at once: the name is
//     absent only between these two calls. A file created at the name in
//     that moment (a shell's `>>` opens with O_CREAT) is not replaced: it
//     is moved to a kept name, the file moved aside goes back, and the
//     write is refused (ErrFileChanged, naming the kept file);
//  3. the file moved aside must prove to be old, still holding expect's
//     bytes, with the lease (if any) unbroken (provenUnchanged): an
//     editor's save before step 1, or a write by a program that kept the
//     file open, made before this proof, makes git-edit move its own file
//     away and put that one back, and refuse (ErrFileChanged);
//  4. the file moved aside is unlinked.
//
// What remains: a program holding the file open that writes after step 3
// writes to the unlinked copy (where leases exist, holdOffWriters keeps
// such a writer out); and between steps 1 and 2 the name is absent.
// replaced reports whether ours is at name on return, as for writeFile.
// tmp is gone on return, unless its name is given in the error.
func swapAside(d *workDir, p Path, top, dir, tmp, name string, old, mine *os.File, checked, ours fileInfo, wrote []byte, expect FileState, leased, restoring bool) (replaced bool, err error) {
	aside := tempName(name)
	p.noteTemp("aside", top, dir, name, aside)
	// A rename that replaces, to a fresh name only git-edit uses under
	// the edit lock: where renameNoReplace links and unlinks, an editor's
	// save landing between the two would be unlinked; a rename moves
	// whichever file is at name, which the proof then looks at.
	if err := renameAt(d, name, aside); err != nil {
		unlinkAt(d, tmp)
		if errors.Is(err, fs.ErrNotExist) {
			return false, changedError(p.Rel, "it was deleted")
		}
		return false, fmt.Errorf("replace %s: %w", p.Rel, err)
	}
	CrashPoint("swap-aside")
	if !restoring {
		Pause("aside", p.Rel)
	}
	if err := renameNoReplace(d, tmp, name); err != nil {
		unlinkAt(d, tmp)
		if errors.Is(err, fs.ErrExist) {
			return false, keepNewcomer(d, p, dir, aside, name)
		}
		if perr := putAsideBack(d, p, dir, aside, name, "git-edit could not rename its new file in"); errors.Is(perr, ErrRestoreFailed) {
			return false, perr
		}
		return false, fmt.Errorf("replace %s: %w", p.Rel, err)
	}
	CrashPoint("swap-in")
	CrashPoint("swapped") // the state an exchange leaves: new bytes at name, old aside
	if !restoring {
		Pause("swapped-in", p.Rel)
	}
	if why := provenUnchanged(d, aside, old, checked, expect, leased); why != "" {
		return false, swapBack(d, p, dir, tmp, aside, name, mine, ours, wrote, why)
	}
	if err := unlinkAt(d, aside); err != nil {
		return true, fmt.Errorf("replace %s: remove the replaced file %s: %w", p.Rel, path.Join(dir, aside), err)
	}
	return true, nil
}

// keepNewcomer handles a file created at name while swapAside had moved
// the file aside (most often a shell's `>>`, whose O_CREAT made a file of
// just its line): it is moved to a kept name (one that cleanup and
// `record` leave alone), the file moved aside goes back to name, and the
// refusal names the kept file. So the file keeps everything it held, and
// the newcomer's bytes are beside it.
func keepNewcomer(d *workDir, p Path, dir, aside, name string) error {
	kept := "." + name + ".git-edit-kept-" + strings.TrimPrefix(tempName(name), "."+name+".git-edit-")
	if err := renameAt(d, name, kept); err != nil {
		return fmt.Errorf("%w: %s: a file was created at its name while git-edit replaced it, and moving it away failed: %w (the version git-edit read is kept as %s)", ErrRestoreFailed, p.Rel, err, path.Join(dir, keepAside(d, aside, name)))
	}
	err := putAsideBack(d, p, dir, aside, name, "it was created while git-edit replaced it")
	return fmt.Errorf("%w (the file created at its name then is kept as %s)", err, path.Join(dir, kept))
}

// putAsideBack moves the file at aside (moved away from name by swapAside
// or removeFile, and not the file checked, or changed: why) back to name
// without replacing, and returns the refusal: ErrFileChanged, or
// ErrRestoreFailed naming where its bytes are kept when name was taken
// meanwhile.
func putAsideBack(d *workDir, p Path, dir, aside, name, why string) error {
	if err := moveBack(d, aside, name); err != nil {
		return fmt.Errorf("%w: %s: %w (its bytes are kept as %s)", ErrRestoreFailed, changedError(p.Rel, why), err, path.Join(dir, keepAside(d, aside, name)))
	}
	return changedError(p.Rel, why)
}

// moveBack renames aside (moved away from name by git-edit) back to name
// without replacing anything. Where renameNoReplace links and unlinks
// (FreeBSD, NFS), a directory (put in place of the file after the check,
// and moved aside with it) cannot be linked: it goes back by a plain
// rename, and only while nothing is at name, so nothing is replaced.
func moveBack(d *workDir, aside, name string) error {
	err := renameNoReplace(d, aside, name)
	if err == nil || isExist(err) {
		return err
	}
	if fi, lerr := lstatAt(d, aside); lerr == nil && fi.mode.IsDir() {
		if _, nerr := lstatAt(d, name); isNotExist(nerr) {
			return renameAt(d, aside, name)
		}
	}
	return err
}

// stillHolds reports whether the file at name in d is still ours (its
// inode) and holds exactly want; false when it cannot be read.
func stillHolds(d *workDir, name string, ours fileInfo, want []byte) bool {
	f, err := openFileAt(d, name)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := fstat(f); err != nil || !fi.same(ours) {
		return false
	}
	same, err := holds(f, want)
	return err == nil && same
}

// swapBack undoes swapAside's renames after its last proof failed (why):
// ours goes from name back to tmp, then the file at aside goes back to
// name. Each rename moves whichever file is there, so each is checked: a
// file that is not ours at name (saved over it meanwhile) is put back
// and the one at aside kept; a name taken meanwhile keeps both. ours is
// kept too when a program opened it for writing (mine's lease broke) or
// wrote to it: it no longer holds wrote, the bytes git-edit wrote (compared
// byte for byte: a write that keeps the size within one tick of the
// coarse clock keeps the mtime too).
func swapBack(d *workDir, p Path, dir, tmp, aside, name string, mine *os.File, ours fileInfo, wrote []byte, why string) error {
	if err := renameAt(d, name, tmp); err != nil {
		return fmt.Errorf("%w: %s: %w (the version git-edit read is kept as %s)", ErrRestoreFailed, changedError(p.Rel, why), err, path.Join(dir, keepAside(d, aside, name)))
	}
	if now, err := lstatAt(d, tmp); err != nil || !now.same(ours) {
		// Not ours: another program's file, saved at name after ours.
		theirs := ""
		if renameNoReplace(d, tmp, name) != nil {
			theirs = fmt.Sprintf("; the file saved at the name meanwhile is kept as %s", path.Join(dir, keepAside(d, tmp, name)))
		}
		return fmt.Errorf("%w; and it was replaced again right after (the version git-edit read is kept as %s%s)", changedError(p.Rel, why), path.Join(dir, keepAside(d, aside, name)), theirs)
	}
	err := putAsideBack(d, p, dir, aside, name, why)
	// Without leases a program that opened the name after ours was in
	// (a shell's next `>>`) may have written to ours: its bytes are kept.
	if (mine != nil && leaseBroken(mine)) || !stillHolds(d, tmp, ours, wrote) {
		return fmt.Errorf("%w (the edit's version, opened for writing by another program meanwhile, is kept as %s)", err, path.Join(dir, keepAside(d, tmp, name)))
	}
	unlinkAt(d, tmp)
	return err
}
