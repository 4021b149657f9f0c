package ops

import (
	"strings"

	"github.com/git-edit/git-edit/ops/applypatch"
)

// PatchSubject is the subject of a commit that records an apply_patch
// patch made outside git-edit (Codex's own apply_patch, seen by its
// PostToolUse hook): what the patch did, file by file, in patch order,
// "apply_patch: update a.go, add b.go, delete c.go, move d.go to e.go".
// ok is false when text is not a patch apply_patch reads; then it says
// nothing about it.
func PatchSubject(text string) (subject string, ok bool) {
	p, err := applypatch.Parse(text)
	if err != nil || len(p.Files) == 0 {
		return "", false
	}
	parts := make([]string, 0, len(p.Files))
	for _, f := range p.Files {
		switch {
		case f.Kind == applypatch.Add:
			parts = append(parts, "add "+QuotePath(f.Path))
		case f.Kind == applypatch.Delete:
			parts = append(parts, "delete "+QuotePath(f.Path))
		case f.MoveTo != "":
			parts = append(parts, "move "+QuotePath(f.Path)+" to "+QuotePath(f.MoveTo))
		default:
			parts = append(parts, "update "+QuotePath(f.Path))
		}
	}
	return "apply_patch: " + strings.Join(parts, ", "), true
}
