package undo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// emptyTree is the id of git's empty tree, which git knows without storing
// it: what a root commit is compared with.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// StatCount is what the lines a commit or range added in one file (or in
// all of them) are: the agent's, per session, and the person's.
type StatCount struct {
	Path     string         `json:"path,omitempty"`
	Added    int            `json:"added"`
	Agent    int            `json:"agent"`
	Person   int            `json:"person"`
	Sessions map[string]int `json:"sessions"`
}

// Stat counts, for a commit or range, the added lines that were the
// agent's and the person's.
type Stat struct {
	// From is the commit the range starts from (zero: the empty tree, for
	// a root commit), To the one it ends at.
	From, To plumbing.Hash
	Files    []StatCount // in git diff's order; binary files left out
	Total    StatCount
}

// BlameStat counts the lines a commit or range added that agents and the
// person wrote: spec is REV (REV^..REV, a root commit against the empty
// tree; "" is HEAD) or A..B (either side empty: HEAD, as git reads it).
// git diff says which files changed and which lines of B's version were
// added (`git diff -U0`, no rename detection: a renamed file's lines count
// as added); Blame of each such file at B says who wrote them. Binary
// files, symbolic links and submodules are left out. sessions is as for
// Blame. Refusals wrap ErrUnknownRev or ErrUnknownSession.
func BlameStat(ctx context.Context, r *repo.Repo, spec string, sessions []string) (Stat, error) {
	var st Stat
	q, err := newQuarantine(r)
	if err != nil {
		return st, err
	}
	defer q.remove()
	if _, err := pickSessions(r, sessions); err != nil {
		return st, err // refused before any work
	}
	fh, th, isRange, err := resolveSpan(ctx, q, spec)
	if err != nil {
		return st, err
	}
	st.To = th
	from := ""
	if isRange {
		st.From, from = fh, fh.String()
	} else {
		c, err := r.ReadCommit(st.To)
		if err != nil {
			return st, err
		}
		from = emptyTree
		if len(c.ParentHashes) > 0 {
			st.From = c.ParentHashes[0]
			from = st.From.String()
		}
	}
	files, err := addedLines(ctx, q, from, st.To.String())
	if err != nil {
		return st, err
	}
	st.Total = StatCount{Sessions: map[string]int{}}
	for _, f := range files {
		lines, err := blameIn(ctx, q, f.path, st.To, sessions)
		if errors.Is(err, ErrNoSuchFile) {
			continue // a symbolic link or a submodule
		}
		if err != nil {
			return st, err
		}
		fc := StatCount{Path: f.path, Sessions: map[string]int{}}
		for _, n := range f.added {
			if n < 1 || n > len(lines) {
				return st, fmt.Errorf("%w: git diff names line %d of %s, which has %d", errBlameFormat, n, f.path, len(lines))
			}
			fc.Added++
			if l := lines[n-1]; l.Agent {
				fc.Agent++
				fc.Sessions[l.Session]++
			} else {
				fc.Person++
			}
		}
		st.Files = append(st.Files, fc)
		st.Total.Added += fc.Added
		st.Total.Agent += fc.Agent
		st.Total.Person += fc.Person
		for s, n := range fc.Sessions {
			st.Total.Sessions[s] += n
		}
	}
	return st, nil
}

// fileAdded is a file a diff changed and the line numbers, in the new
// version, of the lines it added.
type fileAdded struct {
	path  string
	added []int
}

// addedLines runs git diff from..to: --numstat -z for the paths (as they
// are, unquoted) and which are binary, -U0 for the added lines. Both list
// the files in the same order, one `diff --git` section each.
func addedLines(ctx context.Context, q *quarantine, from, to string) ([]fileAdded, error) {
	common := []string{"-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "diff", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=none"}
	num, err := q.git(ctx, nil, append(common, "--numstat", "-z", from, to, "--")...)
	if err != nil {
		return nil, err
	}
	type entry struct {
		path   string
		binary bool
		added  int
	}
	var entries []entry
	for _, rec := range strings.Split(strings.TrimSuffix(string(num), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("%w: git diff --numstat printed %q", errBlameFormat, rec)
		}
		e := entry{path: f[2], binary: f[0] == "-"}
		if !e.binary {
			if e.added, err = strconv.Atoi(f[0]); err != nil {
				return nil, fmt.Errorf("%w: git diff --numstat printed %q", errBlameFormat, rec)
			}
		}
		entries = append(entries, e)
	}
	patch, err := q.git(ctx, nil, append(common, "-U0", from, to, "--")...)
	if err != nil {
		return nil, err
	}
	section := -1
	added := make([][]int, len(entries))
	sc := bufio.NewScanner(bytes.NewReader(patch))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			section++
			if section >= len(entries) {
				return nil, fmt.Errorf("%w: git diff -U0 lists more files than --numstat", errBlameFormat)
			}
		case strings.HasPrefix(line, "@@ ") && section >= 0:
			start, count, ok := newSide(line)
			if !ok {
				return nil, fmt.Errorf("%w: %q", errBlameFormat, line)
			}
			for n := start; n < start+count; n++ {
				added[section] = append(added[section], n)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if section != len(entries)-1 {
		return nil, fmt.Errorf("%w: git diff -U0 lists %d files, --numstat %d", errBlameFormat, section+1, len(entries))
	}
	var out []fileAdded
	for i, e := range entries {
		if e.binary || e.added == 0 {
			continue
		}
		if len(added[i]) != e.added {
			return nil, fmt.Errorf("%w: %s: git diff -U0 adds %d lines, --numstat %d", errBlameFormat, e.path, len(added[i]), e.added)
		}
		out = append(out, fileAdded{path: e.path, added: added[i]})
	}
	return out, nil
}

// newSide reads the new side "+c[,d]" of a hunk header "@@ -a[,b] +c[,d] @@".
func newSide(line string) (start, count int, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	s, c, hasCount := strings.Cut(f[2][1:], ",")
	start, err := strconv.Atoi(s)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(c); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}
