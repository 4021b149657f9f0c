package applypatch

import (
	"fmt"
	"strings"
)

// Kind is what a file operation does.
type Kind int

// The file operations of a patch.
const (
	Add    Kind = iota + 1 // "*** Add File: P": create P with the given lines
	Delete                 // "*** Delete File: P": remove P
	Update                 // "*** Update File: P": apply hunks to P, maybe move it
)

// String returns the operation's header words: "Add File", "Delete File",
// "Update File".
func (k Kind) String() string {
	switch k {
	case Add:
		return "Add File"
	case Delete:
		return "Delete File"
	case Update:
		return "Update File"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Patch is a parsed patch: its file operations in patch order.
type Patch struct {
	Files []FileOp
	// Lenient says, one sentence each, how the patch was read more loosely
	// than Codex's grammar allows (a shell wrapper, a unified diff, "@@"
	// without its space); none for a patch Codex reads as it is.
	Lenient []string
}

// FileOp is one file operation.
type FileOp struct {
	Kind Kind
	// Path is the file as the patch names it, surrounding whitespace
	// removed; never empty. The caller resolves it.
	Path string
	// MoveTo is the destination of an Update with "*** Move to: Q"; ""
	// otherwise.
	MoveTo string
	// Lines are an Add's lines, without their "+".
	Lines []string
	// Hunks are an Update's hunks, in order; none only for a pure move.
	Hunks []Hunk
	// Line is the 1-based line of the operation's header in the patch text.
	Line int
}

// Hunk is one "@@" section of an Update.
type Hunk struct {
	// Context is the text after the hunk's "@@ " (the line it follows, such
	// as a function header); "" for a bare "@@", or a first hunk without
	// one.
	Context string
	// Outer are the headers of further "@@ header" lines written directly
	// before the hunk's last one, outermost first: each is searched for in
	// turn, after the previous, then Context after them.
	Outer []string
	// Lines are the hunk's lines in order.
	Lines []Line
	// EndOfFile: "*** End of File" followed the hunk, so its lines must be
	// the last lines of the file.
	EndOfFile bool
	// Bare counts the context lines written without their leading space
	// (Codex refuses them; they are read as context and the result says so).
	Bare int
}

// Line is one line of a hunk.
type Line struct {
	// Op is ' ' (context: in the file, kept), '-' (removed) or '+' (added).
	// An empty line in the patch is an empty context line.
	Op   byte
	Text string
}

// Paths lists every path the patch reads or writes (update targets, move
// destinations, adds, deletes), in patch order, each once.
func (p Patch) Paths() []string {
	var out []string
	seen := map[string]bool{}
	for _, op := range p.Files {
		for _, path := range []string{op.Path, op.MoveTo} {
			if path != "" && !seen[path] {
				seen[path] = true
				out = append(out, path)
			}
		}
	}
	return out
}

// Distinct refuses a patch in which two operations name the same file, or
// an Update moves a file onto itself: with key returning the same string
// for two paths that are one file. Parse checks it with the paths as
// written; a caller that resolves paths (so that "a.txt" and "./a.txt" are
// one file) calls it again with its resolver. The refusal is a *Failure
// wrapping ErrSamePath that names both operations by their patch lines.
func (p Patch) Distinct(key func(path string) string) error {
	seen := map[string]pathUse{}
	for _, op := range p.Files {
		for _, u := range []pathUse{{op, false}, {op, true}} {
			path := op.Path
			if u.move {
				path = op.MoveTo
			}
			if path == "" {
				continue
			}
			k := key(path)
			prev, dup := seen[k]
			if !dup {
				seen[k] = u
				continue
			}
			if prev.op.Line == op.Line {
				return &Failure{Err: ErrSamePath, Path: op.Path, PatchLine: op.Line, Message: fmt.Sprintf(
					"Invalid patch hunk on line %d: '*** Move to: %s' moves '%s' onto itself. Drop the '*** Move to' line to change the file in place; nothing was changed.",
					op.Line, op.MoveTo, op.Path)}
			}
			return &Failure{Err: ErrSamePath, Path: path, PatchLine: op.Line, Message: fmt.Sprintf(
				"Invalid patch: '%s' is named by two file operations, %s on line %d and %s on line %d. Put every change to one file in one '*** Update File' section (to replace a file, update it); nothing was changed.",
				path, prev.describe(), prev.op.Line, u.describe(), op.Line)}
		}
	}
	return nil
}

// pathUse is one path of an operation: its target, or its move destination.
type pathUse struct {
	op   FileOp
	move bool
}

// describe names the use in a message: "*** Delete File", "*** Move to".
func (u pathUse) describe() string {
	if u.move {
		return "'*** Move to'"
	}
	return "'*** " + u.op.Kind.String() + "'"
}

// String renders the patch in the format Parse reads, one canonical
// spelling: Parse(p.String()) gives p back (Line fields aside).
func (p Patch) String() string {
	var sb strings.Builder
	sb.WriteString(beginMarker + "\n")
	for _, op := range p.Files {
		fmt.Fprintf(&sb, "*** %s: %s\n", op.Kind, op.Path)
		for _, l := range op.Lines {
			sb.WriteString(withEOL("+" + l))
		}
		if op.MoveTo != "" {
			sb.WriteString(moveMarker + op.MoveTo + "\n")
		}
		for _, h := range op.Hunks {
			for _, c := range h.Outer {
				sb.WriteString(withEOL(contextMarker + c))
			}
			if h.Context == "" {
				sb.WriteString(bareContextMarker + "\n")
			} else {
				sb.WriteString(withEOL(contextMarker + h.Context))
			}
			for _, l := range h.Lines {
				sb.WriteString(withEOL(string(l.Op) + l.Text))
			}
			if h.EndOfFile {
				sb.WriteString(eofMarker + "\n")
			}
		}
	}
	sb.WriteString(endMarker + "\n")
	return sb.String()
}

// withEOL is line with its line ending: "\n", or "\r\n" when line ends
// with a carriage return, which Parse would otherwise take as part of the
// line ending.
func withEOL(line string) string {
	if strings.HasSuffix(line, "\r") {
		return line + "\r\n"
	}
	return line + "\n"
}
