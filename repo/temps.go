package repo

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// A write makes a temporary file beside the file it replaces (tempName),
// and a deletion moves the file aside under such a name first. A process
// killed in between leaves that file in the worktree, where `git status`
// lists it and `git add -A` would commit it. So each one is noted first in
// a journal, <common dir>/git-edit/temps, and the next process to take the
// edit lock, whatever it edits, clears what a dead one left
// (clearDeadTemps): under the lock no live process can own one.
//
// A journal line is the kind and quoted fields, space-separated:
//
//	new  <top> <dir> <name> <temp>         (before the temporary file is made)
//	made <top> <dir> <name> <temp> <ino>   (it is made: its inode)
//	aside <top> <dir> <name> <temp>        (before a file is moved aside)
//
// top is the worktree top, dir the directory relative to it, name the
// file's base name. The journal is a note, not a record that must survive
// a power cut: it is not fsynced (the per-name cleanup of writeFile,
// removeStaleTemps, remains for what it misses).

const tempJournal = "temps"

// IsTemporary reports whether the base name n is one git-edit gives its
// temporary files (see tempName), so that `record` never takes one for an
// agent's work.
func IsTemporary(n string) bool {
	i := strings.LastIndex(n, ".git-edit-")
	return i > 1 && n[0] == '.' && isTempOf(n, n[1:i])
}

// IsKept reports whether the base name n is one git-edit gives a file it
// kept after a crash ("." name ".git-edit-kept-" and 12 hex digits, see
// keepAside): bytes no history holds, left for the person to look at, so
// that `record` never takes one for an agent's work.
func IsKept(n string) bool {
	i := strings.LastIndex(n, ".git-edit-kept-")
	if i <= 1 || n[0] != '.' {
		return false
	}
	return isTempOf("."+n[1:i]+".git-edit-"+n[i+len(".git-edit-kept-"):], n[1:i])
}

// noteTemp appends a line to the journal of p's repository (nothing for a
// Path made by hand). Errors are not fatal: the note is a help for
// cleaning up after a crash.
func (p Path) noteTemp(fields ...string) {
	if p.state == "" {
		return
	}
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		if i == 0 {
			b.WriteString(f)
		} else {
			b.WriteString(strconv.Quote(f))
		}
	}
	b.WriteByte('\n')
	if err := os.MkdirAll(p.state, 0o777); err != nil {
		return
	}
	f, err := OpenStateFile(filepath.Join(p.state, tempJournal), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return
	}
	f.WriteString(b.String())
	f.Close()
}

// clearDeadTemps clears the temporary files the journal names that are
// still there, left by a process that died: under the edit lock, which
// the caller holds, no other process can be writing one. A temporary
// file that is still the one made (same inode) holds new bytes of an
// operation that never moved its ref: removed. One that is not (the dead
// process swapped it with the file) holds the file's old bytes: removed
// when history has them (inHistory), else kept under a name cleanup leaves
// alone (keepAside). A file moved aside by a
// deletion that never finished goes back to its name if that is free,
// else it is kept likewise. Then the journal is emptied.
func (r *Repo) clearDeadTemps() {
	name := filepath.Join(r.StateDir(), tempJournal)
	b, err := ReadStateFile(name)
	if err != nil || len(b) == 0 {
		return
	}
	made := map[string]uint64{}
	type entry struct{ kind, top, dir, name, temp string }
	var entries []entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		var f []string
		for rest != "" {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				break
			}
			s, _ := strconv.Unquote(q)
			f = append(f, s)
			rest = strings.TrimPrefix(rest[len(q):], " ")
		}
		switch {
		case (kind == "new" || kind == "aside") && len(f) == 4:
			entries = append(entries, entry{kind, f[0], f[1], f[2], f[3]})
		case kind == "made" && len(f) == 5:
			if ino, err := strconv.ParseUint(f[4], 10, 64); err == nil {
				made[filepath.Join(f[0], f[1], f[3])] = ino
			}
		}
	}
	ours := map[string]bool{}
	for _, e := range entries {
		if !isTempOf(e.temp, e.name) {
			continue
		}
		if _, seen := ours[e.top]; !seen {
			ours[e.top] = r.isWorktree(e.top)
		}
		if !ours[e.top] {
			continue // a journal line naming a directory outside this repository's worktrees
		}
		d, err := openWorkDir(e.top, e.dir, false)
		if err != nil {
			continue
		}
		fi, err := lstatAt(d, e.temp)
		switch {
		case err != nil || !fi.mode.IsRegular():
		case e.kind == "aside":
			// Back to its name if that is free; else (the dead process
			// had put its new file there) removed if history has these
			// bytes, kept otherwise.
			if renameNoReplace(d, e.temp, e.name) != nil {
				if r.inHistory(d, e.temp, e.top, path.Join(filepath.ToSlash(e.dir), e.name)) {
					unlinkAt(d, e.temp)
				} else {
					keepAside(d, e.temp, e.name)
				}
			}
		default:
			ino, known := made[filepath.Join(e.top, e.dir, e.temp)]
			if known && ino != fi.ino && !r.inHistory(d, e.temp, e.top, path.Join(filepath.ToSlash(e.dir), e.name)) {
				keepAside(d, e.temp, e.name) // swapped: the file's old bytes, in no history
			} else {
				unlinkAt(d, e.temp)
			}
		}
		d.Close()
	}
	if f, err := OpenStateFile(name, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
		f.Close()
	}
}

// inHistory reports whether the bytes of temp in d, as they are, are the
// blob that HEAD (of the worktree at top, when it is r's) or a session's
// tip records at rel: then a dead process's swapped temporary holding the
// file's old bytes may go, as history has them. A process killed between
// its swap and the removal of its temporary leaves the file's old bytes
// there; most often they are the session's last version. Bytes that a
// conversion changes (CRLF, filters) never match a blob here, and are
// kept: the check errs towards keeping.
func (r *Repo) inHistory(d *workDir, temp, top, rel string) bool {
	f, err := openFileAt(d, temp)
	if err != nil {
		return false
	}
	content, err := io.ReadAll(io.LimitReader(f, DefaultMaxFileSize+1))
	f.Close()
	if err != nil || int64(len(content)) > DefaultMaxFileSize {
		return false
	}
	blob := plumbing.ComputeHash(plumbing.BlobObject, content)
	var tips []plumbing.Hash
	if top == r.Top {
		if head, err := r.ReadRef("HEAD"); err == nil && !head.IsZero() {
			tips = append(tips, head)
		}
	}
	refs, err := r.ListRefs("refs/edits/")
	if err != nil {
		return false
	}
	for _, ref := range refs {
		tips = append(tips, ref.Hash)
	}
	for _, tip := range tips {
		tree, err := r.TreeOf(tip)
		if err != nil {
			continue
		}
		if e, err := r.EntryAt(tree, rel); err == nil && e.Exists() && e.Hash == blob {
			return true
		}
	}
	return false
}

// isWorktree reports whether top is the top of one of r's worktrees: its
// .git is r's common dir, or a file naming a git dir under the common
// dir's worktrees/. The journal lives in the common dir, so it names the
// temporaries of every worktree; nothing else may be cleared through it.
func (r *Repo) isWorktree(top string) bool {
	if top == r.Top {
		return true
	}
	dotGit := filepath.Join(top, ".git")
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return false
	}
	common, err := os.Stat(r.CommonDir)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		return os.SameFile(fi, common)
	}
	if !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return false
	}
	b, err := os.ReadFile(dotGit)
	if err != nil {
		return false
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return false
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(top, gitdir)
	}
	parent, err := os.Stat(filepath.Dir(filepath.Dir(gitdir)))
	return err == nil && filepath.Base(filepath.Dir(gitdir)) == "worktrees" && os.SameFile(parent, common)
}
