package share

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops/share/secrets"
	"github.com/go-git/go-git/v5/plumbing"
)

// additions is what a push would send that the server does not have:
// per session the commits it reaches and their size; the file versions
// the commits add or change, each with its path and the lines it adds;
// the commit messages.
type additions struct {
	commits  map[string]int
	bytes    map[string]int64
	blobs    []secrets.Blob
	messages []secrets.Message
}

// collect reads the commits the sessions' tips reach that haves do not
// (what git push would send), each attributed to the first session, in
// the order given, that reaches it; then what each adds over its first
// parent (the whole tree for a root commit), with one git rev-list and
// one git diff-tree for all of them.
func collect(ctx context.Context, g gitRunner, sessions []PushedSession, haves []plumbing.Hash) (additions, error) {
	a := additions{commits: map[string]int{}, bytes: map[string]int64{}}
	var in bytes.Buffer
	for _, p := range sessions {
		if !p.UpToDate {
			fmt.Fprintln(&in, p.Tip)
		}
	}
	for _, h := range haves {
		fmt.Fprintf(&in, "^%s\n", h) // git 2.39 reads no --not on stdin
	}
	out, err := g.run(ctx, in.Bytes(), "rev-list", "--parents", "--stdin")
	if err != nil {
		return a, err
	}
	parents := map[plumbing.Hash][]plumbing.Hash{}
	var order []plumbing.Hash
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		c := plumbing.NewHash(f[0])
		order = append(order, c)
		for _, p := range f[1:] {
			parents[c] = append(parents[c], plumbing.NewHash(p))
		}
		if parents[c] == nil {
			parents[c] = []plumbing.Hash{}
		}
	}
	// Which session reaches each new commit first; each session counts
	// every new commit it reaches.
	owner := map[plumbing.Hash]string{}
	reach := map[string][]plumbing.Hash{}
	for _, p := range sessions {
		if p.UpToDate {
			continue
		}
		seen := map[plumbing.Hash]bool{}
		stack := []plumbing.Hash{p.Tip}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ps, isNew := parents[c]
			if !isNew || seen[c] {
				continue
			}
			seen[c] = true
			reach[p.Session] = append(reach[p.Session], c)
			if _, ok := owner[c]; !ok {
				owner[c] = p.Session
			}
			stack = append(stack, ps...)
		}
	}
	size := map[plumbing.Hash]int64{}
	for _, c := range order {
		commit, err := g.r.ReadCommit(c)
		if err != nil {
			return a, fmt.Errorf("read commit %s: %w", c, err)
		}
		a.messages = append(a.messages, secrets.Message{Session: owner[c], Commit: c.String(), Text: commit.Message})
		size[c] += int64(len(commit.Message)) + 200 // header lines: tree, parents, author, committer
	}
	if err := a.readChanges(ctx, g, order, parents, owner, size); err != nil {
		return a, err
	}
	for s, cs := range reach {
		a.commits[s] = len(cs)
		for _, c := range cs {
			a.bytes[s] += size[c]
		}
	}
	return a, nil
}

// readChanges reads, with one git diff-tree, what each commit of order
// changes over its first parent, and the blobs and added lines of the
// paths it adds or changes; size gains each commit's new blobs' sizes.
func (a *additions) readChanges(ctx context.Context, g gitRunner, order []plumbing.Hash, parents map[plumbing.Hash][]plumbing.Hash, owner map[plumbing.Hash]string, size map[plumbing.Hash]int64) error {
	if len(order) == 0 {
		return nil
	}
	var in bytes.Buffer
	for _, c := range order {
		if ps := parents[c]; len(ps) > 0 {
			fmt.Fprintln(&in, c, ps[0])
		} else {
			fmt.Fprintln(&in, c)
		}
	}
	out, err := g.run(ctx, in.Bytes(), "diff-tree", "--stdin", "-z", "-r", "--no-renames", "--root", "--no-ext-diff")
	if err != nil {
		return err
	}
	fields := bytes.Split(out, []byte{0})
	var commit plumbing.Hash
	for i := 0; i < len(fields); i++ {
		f := string(fields[i])
		switch {
		case f == "":
			continue
		case !strings.HasPrefix(f, ":"):
			commit = plumbing.NewHash(strings.TrimSpace(f))
			continue
		}
		if i+1 >= len(fields) {
			return fmt.Errorf("git diff-tree: a change without a path: %q", f)
		}
		i++
		path := string(fields[i])
		// :oldmode newmode oldblob newblob status
		meta := strings.Fields(f[1:])
		if len(meta) < 5 {
			return fmt.Errorf("git diff-tree: cannot read %q", f)
		}
		newMode, oldBlob, newBlob, status := meta[1], meta[2], meta[3], meta[4]
		if status == "D" || newMode == "160000" {
			continue // a deletion sends nothing; a submodule's commit is not in this repository
		}
		content, err := g.r.ReadBlob(plumbing.NewHash(newBlob))
		if err != nil {
			return fmt.Errorf("read %s of commit %s: %w", path, commit, err)
		}
		size[commit] += int64(len(content))
		// A git-lfs pointer's object goes with the push (git-lfs'
		// pre-push hook uploads it): its content is what is checked.
		if obj := lfsContent(g.r, content); obj != nil {
			content = obj
		}
		b := secrets.Blob{Session: owner[commit], Commit: commit.String(), Path: path, Content: content}
		if old := plumbing.NewHash(oldBlob); !old.IsZero() && status != "A" {
			before, err := g.r.ReadBlob(old)
			if err != nil {
				return fmt.Errorf("read %s before commit %s: %w", path, commit, err)
			}
			if obj := lfsContent(g.r, before); obj != nil {
				before = obj
			}
			b.Added = addedLines(before, content)
			if len(b.Added) == 0 {
				b.Added = []secrets.LineRange{} // a mode change: no line is new
			}
		}
		a.blobs = append(a.blobs, b)
	}
	return nil
}

// addedLines is the lines of after that a diff from before adds,
// 1-based inclusive ranges.
func addedLines(before, after []byte) []secrets.LineRange {
	var out []secrets.LineRange
	for _, h := range diffview.FileHunks(before, after, 0) {
		if h.NewLines > 0 {
			out = append(out, secrets.LineRange{First: h.NewStart + 1, Last: h.NewStart + h.NewLines})
		}
	}
	return out
}
