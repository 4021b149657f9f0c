package undo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// CommitLines is what one commit added, file by file, and who wrote each
// added line.
type CommitLines struct {
	Commit plumbing.Hash
	// Parent is the first parent the commit is compared with; zero for a
	// root commit (compared with the empty tree).
	Parent plumbing.Hash
	// Time is the commit's committer time.
	Time  time.Time
	Files []AddedLines
}

// AddedLines is the lines a commit added to one file, in line order, as
// Blame of the file at the commit attributes them (Line is the line's
// number in the file at the commit).
type AddedLines struct {
	Path  string
	Lines []LineOrigin
}

// AttributeCommits attributes the lines each commit of spec added: spec
// is REV ("" is HEAD) or A..B, whose commits (git rev-list --reverse A..B,
// oldest first) are each compared with their first parent. The counting
// is BlameStat's, commit by commit: git diff -U0 says which lines were
// added, Blame of the file at the commit says who wrote them; binary
// files, symbolic links and submodules are left out. Because attribution
// comes from content and the session refs, the answer for a commit a
// squash or rebase made is as right as for the commits it replaced.
// Refusals wrap ErrUnknownRev or ErrUnknownSession.
func AttributeCommits(ctx context.Context, r *repo.Repo, spec string, sessions []string) ([]CommitLines, error) {
	q, err := newQuarantine(r)
	if err != nil {
		return nil, err
	}
	defer q.remove()
	if _, err := pickSessions(r, sessions); err != nil {
		return nil, err
	}
	fh, th, isRange, err := resolveSpan(ctx, q, spec)
	if err != nil {
		return nil, err
	}
	commits := []plumbing.Hash{th}
	if isRange {
		out, err := q.git(ctx, nil, "rev-list", "--reverse", fh.String()+".."+th.String(), "--")
		if err != nil {
			return nil, err
		}
		commits = nil
		for _, f := range strings.Fields(string(out)) {
			if !plumbing.IsHash(f) {
				return nil, fmt.Errorf("%w: git rev-list printed %q", errBlameFormat, f)
			}
			commits = append(commits, plumbing.NewHash(f))
		}
	}
	var res []CommitLines
	for _, h := range commits {
		c, err := r.ReadCommit(h)
		if err != nil {
			return nil, err
		}
		cl := CommitLines{Commit: h, Time: c.Committer.When}
		from := emptyTree
		if len(c.ParentHashes) > 0 {
			cl.Parent = c.ParentHashes[0]
			from = cl.Parent.String()
		}
		files, err := addedLines(ctx, q, from, h.String())
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			lines, err := blameIn(ctx, q, f.path, h, sessions)
			if errors.Is(err, ErrNoSuchFile) {
				continue // a symbolic link or a submodule
			}
			if err != nil {
				return nil, err
			}
			al := AddedLines{Path: f.path}
			for _, n := range f.added {
				if n < 1 || n > len(lines) {
					return nil, fmt.Errorf("%w: git diff names line %d of %s, which has %d", errBlameFormat, n, f.path, len(lines))
				}
				al.Lines = append(al.Lines, lines[n-1])
			}
			cl.Files = append(cl.Files, al)
		}
		res = append(res, cl)
	}
	return res, nil
}

// notesGit runs git on r's repository (not a quarantine: notes are
// written to the repository's own objects and refs/notes/ai).
func notesGit(ctx context.Context, r *repo.Repo, stdin []byte, args ...string) ([]byte, error) {
	env := append(os.Environ(), "GIT_DIR="+r.GitDir, "GIT_WORK_TREE="+r.Top, "GIT_NOTES_REF=", "GIT_NOTES_DISPLAY_REF=")
	return runGit(ctx, r.Top, env, stdin, strings.Join(args[:min(len(args), 3)], " "), args...)
}

// ReadNote is the note ref (such as refs/notes/ai) holds for commit;
// ok is false when it holds none.
func ReadNote(ctx context.Context, r *repo.Repo, ref string, commit plumbing.Hash) (text string, ok bool, err error) {
	// `git notes list C` exits 1 with nothing when C has no note; the
	// note's blob is then read as it is.
	out, err := notesGit(ctx, r, nil, "notes", "--ref="+ref, "list", commit.String())
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	blob := strings.TrimSpace(string(out))
	if !plumbing.IsHash(blob) {
		return "", false, fmt.Errorf("%w: git notes list printed %q", errBlameFormat, blob)
	}
	data, err := notesGit(ctx, r, nil, "cat-file", "blob", blob)
	if err != nil {
		return "", false, err
	}
	return string(data), true, nil
}

// WriteNote attaches text to commit in ref with git itself (`git notes
// --ref=REF add -f -F -`), replacing a note there. It is the one write
// git-edit makes outside refs/edits/, asked for by `git edit notes`.
func WriteNote(ctx context.Context, r *repo.Repo, ref string, commit plumbing.Hash, text string) error {
	_, err := notesGit(ctx, r, []byte(text), "-c", "core.notesRef="+ref, "notes", "--ref="+ref, "add", "-f", "-F", "-", commit.String())
	return err
}
