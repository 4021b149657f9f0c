package share

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/ops/share/secrets"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
)

// IgnoredPath is a path a pushed commit adds or changes that the
// worktree's ignore rules exclude (.env, *.pem): a session records every
// file it edits, ignored or not, and a push would send it.
type IgnoredPath struct{ Session, Commit, Path string }

// CheckError refuses a push that would send ignored paths or secrets not
// allowed; it wraps ErrSecrets. Nothing was pushed.
type CheckError struct {
	Ignored  []IgnoredPath
	Findings []secrets.Finding
}

func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; nothing was pushed:", ErrSecrets)
	for _, p := range e.Ignored {
		fmt.Fprintf(&b, "\n  session %s, commit %s: %s is ignored by this worktree (git check-ignore -v -- %s says by what); --allow %s sends it",
			p.Session, short(p.Commit), p.Path, session.ShellQuote(p.Path), session.ShellQuote(p.Path))
	}
	for _, f := range e.Findings {
		where := fmt.Sprintf("%s line %d", f.Path, f.Line)
		if f.Path == "" {
			where = fmt.Sprintf("the commit message, line %d", f.Line)
		}
		fmt.Fprintf(&b, "\n  session %s, commit %s: %s: %s (%s); --allow-secret %s sends it",
			f.Session, short(f.Commit), where, f.Rule, f.Description, f.Fingerprint)
	}
	b.WriteString("\nA session's history keeps every version it recorded, so undoing the edit does not take the secret out of what a push sends: " +
		"send it knowingly with the options above (rotate a real key first), or leave that session unpushed (`git edit prune --session NAME` deletes it)")
	return b.String()
}

// Unwrap makes errors.Is(err, ErrSecrets) hold.
func (e *CheckError) Unwrap() error { return ErrSecrets }

// check refuses what a push would send that the worktree ignores (unless
// its path is in allowPaths) or that the secret scanner finds on an added
// line (unless its fingerprint is in allowSecrets).
func check(ctx context.Context, r *repo.Repo, a additions, allowPaths, allowSecrets []string) error {
	var e CheckError
	var paths []string
	seen := map[string]bool{}
	for _, b := range a.blobs {
		if !seen[b.Path] {
			seen[b.Path] = true
			paths = append(paths, b.Path)
		}
	}
	ignored, err := secrets.Ignored(ctx, r.Top, paths)
	if err != nil {
		return fmt.Errorf("check which pushed paths are ignored: %w; nothing was pushed", err)
	}
	// Each ignored path once, at the first commit that sends it.
	for _, b := range a.blobs {
		if ignored[b.Path] && !slices.Contains(allowPaths, b.Path) {
			delete(ignored, b.Path)
			e.Ignored = append(e.Ignored, IgnoredPath{Session: b.Session, Commit: b.Commit, Path: b.Path})
		}
	}
	found, err := secrets.Scan(ctx, a.blobs, a.messages)
	if err != nil {
		return fmt.Errorf("scan the pushed commits for secrets: %w; nothing was pushed", err)
	}
	for _, f := range found {
		if !slices.Contains(allowSecrets, f.Fingerprint) {
			e.Findings = append(e.Findings, f)
		}
	}
	if len(e.Ignored) > 0 || len(e.Findings) > 0 {
		return &e
	}
	return nil
}

// short is a commit id's first 12 characters.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
