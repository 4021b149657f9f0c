package applypatch

import (
	"fmt"
	"strings"
)

// The format's markers, as Codex's parser spells them.
const (
	beginMarker       = "*** Begin Patch"
	endMarker         = "*** End Patch"
	addMarker         = "*** Add File: "
	deleteMarker      = "*** Delete File: "
	updateMarker      = "*** Update File: "
	moveMarker        = "*** Move to: "
	eofMarker         = "*** End of File"
	contextMarker     = "@@ "
	bareContextMarker = "@@"
)

// heredocStarts are the first lines of a shell heredoc wrapper that Codex's
// lenient mode strips (a model writing `apply_patch <<'EOF'` habits into
// the argument).
var heredocStarts = []string{"<<EOF", "<<'EOF'", `<<"EOF"`}

// patchLine is one line of the patch text and its 1-based line number.
type patchLine struct {
	text string
	num  int
}

// Parse reads a patch, with Codex's grammar and leniency:
//
//	Patch      := "*** Begin Patch" { FileOp } "*** End Patch"
//	FileOp     := AddFile | DeleteFile | UpdateFile
//	AddFile    := "*** Add File: " path { "+" line }
//	DeleteFile := "*** Delete File: " path
//	UpdateFile := "*** Update File: " path [ "*** Move to: " path ] { Hunk }
//	Hunk       := { "@@" [ " " header ] } { (" " | "-" | "+") line } [ "*** End of File" ]
//
// Lines end with "\n" or "\r\n". Whitespace around the whole text and around
// the Begin, End, file-operation and End of File markers is ignored, as is
// a shell heredoc wrapper (a first line "<<EOF", "<<'EOF'" or `<<"EOF"` and
// a last line ending in "EOF"). The first hunk of an Update may omit its
// "@@"; every later one needs it. An empty line inside a hunk is an empty
// context line; blank lines between hunks and between file operations are
// skipped. A line without a prefix ends a hunk (it must then start the
// next hunk or file operation).
//
// The patch must have at least one file operation, non-empty paths, and
// no two operations naming one path (Distinct). Every refusal is a
// *Failure wrapping ErrInvalidPatch (ErrSamePath for Distinct) whose text
// is Codex's ("Invalid patch: ..." or "Invalid patch hunk on line N: ...")
// followed by what to do, with PatchLine set where a line is to blame.
func Parse(input string) (Patch, error) {
	lines := splitPatchLines(input)
	body, err := patchBody(lines)
	if err != nil {
		return Patch{}, err
	}
	var p Patch
	for i := 0; i < len(body); {
		if strings.TrimSpace(body[i].text) == "" {
			i++
			continue
		}
		op, n, err := parseFileOp(body[i:], p.Files)
		if err != nil {
			return Patch{}, err
		}
		p.Files = append(p.Files, op)
		i += n
	}
	if len(p.Files) == 0 {
		return Patch{}, &Failure{Err: ErrInvalidPatch, Message: "No files were modified. The patch has no '*** Add File', '*** Delete File' or '*** Update File' section; put at least one between '*** Begin Patch' and '*** End Patch'."}
	}
	if err := p.Distinct(func(path string) string { return path }); err != nil {
		return Patch{}, err
	}
	return p, nil
}

// splitPatchLines splits text into lines as Rust's str::lines does (a
// final line ending makes no empty last line; "\r\n" counts as one), minus
// blank lines at the start and end (Codex trims the whole text first).
func splitPatchLines(text string) []patchLine {
	raw := strings.Split(text, "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	lines := make([]patchLine, len(raw))
	for i, l := range raw {
		lines[i] = patchLine{strings.TrimSuffix(l, "\r"), i + 1}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0].text) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1].text) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// patchBody checks the Begin and End markers (inside a heredoc wrapper if
// there is one, as Codex's lenient mode) and returns the lines between.
func patchBody(lines []patchLine) ([]patchLine, error) {
	body, err := between(lines)
	if err == nil {
		return body, nil
	}
	if len(lines) >= 4 && contains(heredocStarts, lines[0].text) && strings.HasSuffix(lines[len(lines)-1].text, "EOF") {
		return between(lines[1 : len(lines)-1])
	}
	return nil, err
}

// between returns the lines between a first "*** Begin Patch" and a last
// "*** End Patch" line, with Codex's refusal when either is missing.
func between(lines []patchLine) ([]patchLine, error) {
	switch {
	case len(lines) == 0 || strings.TrimSpace(lines[0].text) != beginMarker:
		return nil, &Failure{Err: ErrInvalidPatch, PatchLine: 1, Message: "Invalid patch: The first line of the patch must be '*** Begin Patch'. Send the whole patch in \"input\": a '*** Begin Patch' line, the file operations, then a '*** End Patch' line; nothing was changed."}
	case len(lines) == 1 || strings.TrimSpace(lines[len(lines)-1].text) != endMarker:
		return nil, &Failure{Err: ErrInvalidPatch, PatchLine: lines[len(lines)-1].num, Message: "Invalid patch: The last line of the patch must be '*** End Patch'. End \"input\" with a '*** End Patch' line (if the patch was cut off, send it whole); nothing was changed."}
	}
	return lines[1 : len(lines)-1], nil
}

// parseFileOp reads the file operation starting at lines[0] (not blank)
// and returns it with the number of lines it took. done are the
// operations before it, for a hint when an Add's content lost its "+".
func parseFileOp(lines []patchLine, done []FileOp) (FileOp, int, error) {
	head := strings.TrimSpace(lines[0].text)
	num := lines[0].num
	var op FileOp
	switch {
	case strings.HasPrefix(head, addMarker) || head == strings.TrimSpace(addMarker):
		op = FileOp{Kind: Add, Line: num}
	case strings.HasPrefix(head, deleteMarker) || head == strings.TrimSpace(deleteMarker):
		op = FileOp{Kind: Delete, Line: num}
	case strings.HasPrefix(head, updateMarker) || head == strings.TrimSpace(updateMarker):
		op = FileOp{Kind: Update, Line: num}
	default:
		hint := ""
		if len(done) > 0 && done[len(done)-1].Kind == Add {
			hint = " In an '*** Add File' section every line starts with '+', an empty line too ('+' alone)."
		} else if head == beginMarker || head == endMarker {
			hint = " Send one patch at a time, with one '*** Begin Patch' and one '*** End Patch' line."
		}
		return FileOp{}, 0, invalidHunk(num, "'%s' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'.%s", head, hint)
	}
	marker := "*** " + op.Kind.String() + ":"
	op.Path = strings.TrimSpace(strings.TrimPrefix(head, marker))
	if op.Path == "" {
		return FileOp{}, 0, invalidHunk(num, "'%s' has no path. Write the file's path after it, such as '%s src/app.py'.", marker, marker)
	}

	n := 1
	switch op.Kind {
	case Add:
		op.Lines = []string{}
		for n < len(lines) && strings.HasPrefix(lines[n].text, "+") {
			op.Lines = append(op.Lines, lines[n].text[1:])
			n++
		}
	case Update:
		if n < len(lines) {
			if move := strings.TrimSpace(lines[n].text); strings.HasPrefix(move, strings.TrimSpace(moveMarker)) {
				op.MoveTo = strings.TrimSpace(strings.TrimPrefix(move, strings.TrimSpace(moveMarker)))
				if op.MoveTo == "" {
					return FileOp{}, 0, invalidHunk(lines[n].num, "'*** Move to:' has no path. Write the new path after it, such as '*** Move to: src/main.py'.")
				}
				n++
			}
		}
		for n < len(lines) {
			if strings.TrimSpace(lines[n].text) == "" {
				n++ // blank lines between hunks
				continue
			}
			if strings.HasPrefix(lines[n].text, "*") {
				break // the next file operation
			}
			h, used, err := parseHunk(lines[n:], len(op.Hunks) == 0)
			if err != nil {
				return FileOp{}, 0, err
			}
			op.Hunks = append(op.Hunks, h)
			n += used
		}
		if len(op.Hunks) == 0 && op.MoveTo == "" {
			return FileOp{}, 0, invalidHunk(num, "Update file hunk for path '%s' is empty. Give at least one hunk: a '@@' line, then the lines, each starting with ' ' (context), '-' (removed) or '+' (added).", op.Path)
		}
	}
	return op, n, nil
}

// parseHunk reads one hunk starting at lines[0] and returns it with the
// number of lines it took. Only the first hunk of a file may omit "@@".
func parseHunk(lines []patchLine, first bool) (Hunk, int, error) {
	var h Hunk
	n := 0
	var headers []string
	for n < len(lines) {
		t := lines[n].text
		if t == bareContextMarker {
			headers = append(headers, "")
		} else if c, ok := strings.CutPrefix(t, contextMarker); ok {
			// An "@@ " followed by nothing but whitespace is a bare "@@":
			// searching for a blank line is never what was meant.
			if strings.TrimSpace(c) == "" {
				c = ""
			}
			headers = append(headers, c)
		} else {
			break
		}
		n++
	}
	if n == 0 && !first {
		return Hunk{}, 0, invalidHunk(lines[0].num, "Expected update hunk to start with a @@ context marker, got: '%s'. Every line of a hunk starts with ' ' (context), '-' (removed) or '+' (added), and a context line keeps its leading space; start each further hunk with a '@@' line.", lines[0].text)
	}
	for _, c := range headers {
		if c != "" {
			h.Outer = append(h.Outer, c)
		}
	}
	if len(h.Outer) > 0 {
		h.Context = h.Outer[len(h.Outer)-1]
		h.Outer = h.Outer[:len(h.Outer)-1]
	}
	if len(h.Outer) == 0 {
		h.Outer = nil
	}

	start := n
	for n < len(lines) {
		t := lines[n].text
		if strings.TrimSpace(t) == eofMarker {
			if n == start {
				break // refused below: no lines
			}
			h.EndOfFile = true
			n++
			break
		}
		if t == "" {
			h.Lines = append(h.Lines, Line{Op: ' '})
			n++
			continue
		}
		switch t[0] {
		case ' ', '-', '+':
			h.Lines = append(h.Lines, Line{Op: t[0], Text: t[1:]})
			n++
			continue
		}
		if n == start {
			return Hunk{}, 0, invalidHunk(lines[n].num, "Unexpected line found in update hunk: '%s'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)", t)
		}
		break
	}
	if len(h.Lines) == 0 {
		at := lines[len(lines)-1].num + 1
		if n < len(lines) {
			at = lines[n].num
		}
		return Hunk{}, 0, invalidHunk(at, "Update hunk does not contain any lines. After '@@', give the hunk's lines, each starting with ' ' (context), '-' (removed) or '+' (added).")
	}
	return h, n, nil
}

// invalidHunk is Codex's "Invalid patch hunk on line N: ..." refusal.
func invalidHunk(line int, format string, args ...any) *Failure {
	return &Failure{Err: ErrInvalidPatch, PatchLine: line,
		Message: fmt.Sprintf("Invalid patch hunk on line %d: ", line) + fmt.Sprintf(format, args...) + " Nothing was changed; fix the patch and send it again."}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
