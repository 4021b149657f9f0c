package applypatch

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
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
	var p Patch
	body, unified, err := patchBody(lines, &p.Lenient)
	if err != nil {
		return Patch{}, err
	}
	r := &reader{unified: unified}
	for i := 0; i < len(body); {
		if strings.TrimSpace(body[i].text) == "" {
			i++
			continue
		}
		op, n, err := r.parseFileOp(body[i:], p.Files)
		if err != nil {
			return Patch{}, err
		}
		p.Files = append(p.Files, op)
		i += n
	}
	p.Lenient = append(p.Lenient, r.lenient()...)
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
//
// Where Codex would refuse, it also unwraps the shell forms models write
// the patch in (leading "bash -lc" lines, `cat <<'EOF'`, `apply_patch
// <<"EOF"`, any delimiter word, a closing quote after it) and reads a
// plain unified diff ("--- a/x", "+++ b/x", "@@ -a,b +c,d @@", "diff
// --git" headers) without the markers: unified is true then, and lenient
// gets a phrase for each.
func patchBody(lines []patchLine, lenient *[]string) (body []patchLine, unified bool, err error) {
	body, err = between(lines)
	if err == nil {
		return body, false, nil
	}
	if len(lines) >= 4 && contains(heredocStarts, lines[0].text) && strings.HasSuffix(lines[len(lines)-1].text, "EOF") {
		// Codex's own heredoc forms: its refusal of what is inside wins.
		if body, err = between(lines[1 : len(lines)-1]); err == nil {
			return body, false, nil
		}
	}
	inner, wrapped := unwrapShell(lines)
	if wrapped {
		if body, err2 := between(inner); err2 == nil {
			*lenient = append(*lenient, "the patch was unwrapped from its shell command and heredoc")
			return body, false, nil
		}
	}
	if looksUnified(inner) {
		if wrapped {
			*lenient = append(*lenient, "the patch was unwrapped from its shell command and heredoc")
		}
		*lenient = append(*lenient, "the patch was read as a unified diff (---/+++/@@ -a,b +c,d @@) and its '@@' line numbers ignored, each hunk searched for after the previous one as in an apply_patch patch")
		return inner, true, nil
	}
	return nil, false, err
}

var (
	// shellLine is a line that only starts a shell command whose argument
	// follows: "bash -lc", `sh -c '`.
	shellLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:ba|z|da)?sh\s+-[a-z]*c\s*['"]?\s*$`) })
	// heredocOpen is a heredoc's first line: anything (a command, such as
	// "cat" or "apply_patch", maybe after "bash -lc '") but a redirection
	// (`cat > p.diff <<EOF` writes a file, it applies nothing), then
	// <<WORD, <<'WORD' or <<"WORD" with matching quotes, and nothing after.
	heredocOpen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^*>]*?<<-?\s*(?:'(\w+)'|"(\w+)"|(\w+))\s*$`) })
)

// unwrapShell returns the lines inside a shell heredoc wrapper, after any
// leading shell command lines, and true; or lines and false when there is
// no such wrapper (its last line must be the delimiter, maybe followed by
// the quote or parenthesis that closes the command).
func unwrapShell(lines []patchLine) ([]patchLine, bool) {
	i := 0
	for i < len(lines) && i < 2 && shellLine().MatchString(lines[i].text) {
		i++
	}
	if i >= len(lines) {
		return lines, false
	}
	m := heredocOpen().FindStringSubmatch(lines[i].text)
	if m == nil || len(lines)-i < 3 {
		return lines, false
	}
	delim := m[1] + m[2] + m[3]
	last := strings.TrimRight(strings.TrimSpace(lines[len(lines)-1].text), `'")`)
	if strings.TrimSpace(last) != delim {
		return lines, false
	}
	return lines[i+1 : len(lines)-1], true
}

// looksUnified reports whether lines hold a unified diff: a "--- " line
// followed by a "+++ " line, then a "@@ -" line.
func looksUnified(lines []patchLine) bool {
	for i := 0; i+2 < len(lines); i++ {
		if strings.HasPrefix(lines[i].text, "--- ") && strings.HasPrefix(lines[i+1].text, "+++ ") && strings.HasPrefix(lines[i+2].text, "@@ -") {
			return true
		}
	}
	return false
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

// reader is one Parse's state: whether the patch is a unified diff, and
// what was read more loosely than Codex's grammar, for Patch.Lenient.
type reader struct {
	unified  bool
	noSpace  int  // "@@header" lines read as "@@ header"
	numbered int  // "@@ -a,b +c,d @@" lines in an apply_patch patch
	diffs    bool // unified diff file headers inside an apply_patch patch
}

// lenient is what r read loosely, one phrase each.
func (r *reader) lenient() []string {
	var out []string
	if r.diffs {
		out = append(out, "its unified diff file headers ('--- a/x', '+++ b/x') were read as '*** Update File' (or Add, Delete) sections")
	}
	if r.noSpace > 0 {
		out = append(out, fmt.Sprintf("'@@' without a space before its header on %s was read as '@@ header'", plural(r.noSpace, "line")))
	}
	if r.numbered > 0 {
		out = append(out, fmt.Sprintf("the unified diff line numbers of %s ('@@ -a,b +c,d @@') were ignored, each hunk searched for after the previous one", plural(r.numbered, "'@@' line")))
	}
	return out
}

// parseFileOp reads the file operation starting at lines[0] (not blank)
// and returns it with the number of lines it took. done are the
// operations before it, for a hint when an Add's content lost its "+".
func (r *reader) parseFileOp(lines []patchLine, done []FileOp) (FileOp, int, error) {
	head := strings.TrimSpace(lines[0].text)
	num := lines[0].num
	var op FileOp
	n := 1
	switch {
	case strings.HasPrefix(head, addMarker) || head == strings.TrimSpace(addMarker):
		op = FileOp{Kind: Add, Line: num}
	case strings.HasPrefix(head, deleteMarker) || head == strings.TrimSpace(deleteMarker):
		op = FileOp{Kind: Delete, Line: num}
	case strings.HasPrefix(head, updateMarker) || head == strings.TrimSpace(updateMarker):
		op = FileOp{Kind: Update, Line: num}
	case unifiedStart(lines):
		// A unified diff's file header, where Codex would refuse.
		var err error
		if op, n, err = unifiedHeader(lines); err != nil {
			return FileOp{}, 0, err
		}
		if !r.unified {
			r.unified = true
			r.diffs = true
		}
		return r.parseBody(op, lines, n)
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
		return r.parseBody(op, lines, n)
	}
	return op, n, nil
}

// parseBody reads the hunks of op (an Update; or, from a unified diff, an
// Add or Delete) from lines[n:], and returns op with the lines used.
func (r *reader) parseBody(op FileOp, lines []patchLine, n int) (FileOp, int, error) {
	for n < len(lines) {
		if strings.TrimSpace(lines[n].text) == "" {
			n++ // blank lines between hunks
			continue
		}
		if strings.HasPrefix(lines[n].text, "*") || r.unified && (unifiedStart(lines[n:]) || strings.HasPrefix(lines[n].text, "diff ")) {
			break // the next file operation
		}
		h, used, err := r.parseHunk(lines[n:], len(op.Hunks) == 0)
		if err != nil {
			return FileOp{}, 0, err
		}
		op.Hunks = append(op.Hunks, h)
		n += used
	}
	switch op.Kind {
	case Add:
		// A unified diff's new file: its hunks' added lines.
		op.Lines = []string{}
		for _, h := range op.Hunks {
			lines := h.Lines
			for len(lines) > 0 && lines[len(lines)-1] == (Line{Op: ' '}) {
				lines = lines[:len(lines)-1] // blank lines after the hunk
			}
			for _, l := range lines {
				if l.Op != '+' {
					return FileOp{}, 0, invalidHunk(op.Line, "the diff of new file '%s' (from /dev/null) has a context or removed line, '%c%s'. Every line of a new file's hunk starts with '+'.", op.Path, l.Op, l.Text)
				}
				op.Lines = append(op.Lines, l.Text)
			}
		}
		op.Hunks = nil
	case Delete:
		op.Hunks = nil // a deleted file's removed lines are not checked
	case Update:
		if len(op.Hunks) == 0 && op.MoveTo == "" {
			return FileOp{}, 0, invalidHunk(op.Line, "Update file hunk for path '%s' is empty. Give at least one hunk: a '@@' line, then the lines, each starting with ' ' (context), '-' (removed) or '+' (added).", op.Path)
		}
	}
	return op, n, nil
}

// unifiedRange is a unified diff's hunk header: "@@ -a,b +c,d @@" and the
// section text git puts after it.
var unifiedRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@`) })

// unifiedStart reports whether lines start a unified diff's file: a "diff
// --git" line, or a "--- " line followed by a "+++ " line.
func unifiedStart(lines []patchLine) bool {
	if strings.HasPrefix(lines[0].text, "diff --git ") {
		return true
	}
	return len(lines) > 1 && strings.HasPrefix(lines[0].text, "--- ") && strings.HasPrefix(lines[1].text, "+++ ")
}

// unifiedHeader reads a unified diff's file header: an optional "diff
// --git a/X b/Y" line and git's extended header lines ("new file mode",
// "deleted file mode", "rename from", "rename to", "index", ...), then
// "--- OLD" and "+++ NEW" (absent in git's diff of a pure rename or mode
// change). /dev/null as OLD makes an Add, as NEW a Delete; a different
// NEW an Update moving OLD to NEW. Paths lose a timestamp after a tab,
// and git's "a/" and "b/" prefixes.
func unifiedHeader(lines []patchLine) (FileOp, int, error) {
	num := lines[0].num
	n := 0
	var oldPath, newPath, renameFrom, renameTo string
	created, deleted := false, false
	if strings.HasPrefix(lines[0].text, "diff --git ") {
		if a, b, ok := strings.Cut(strings.TrimPrefix(lines[0].text, "diff --git "), " b/"); ok {
			oldPath, newPath = a, "b/"+b
		}
		n++
		for n < len(lines) && !strings.HasPrefix(lines[n].text, "--- ") && !strings.HasPrefix(lines[n].text, "diff ") && !strings.HasPrefix(lines[n].text, "@@") && !strings.HasPrefix(lines[n].text, "*") {
			t := lines[n].text
			switch {
			case strings.HasPrefix(t, "new file mode"):
				created = true
			case strings.HasPrefix(t, "deleted file mode"):
				deleted = true
			case strings.HasPrefix(t, "rename from "):
				renameFrom = strings.TrimPrefix(t, "rename from ")
			case strings.HasPrefix(t, "rename to "):
				renameTo = strings.TrimPrefix(t, "rename to ")
			}
			n++
		}
	}
	if n+1 < len(lines) && strings.HasPrefix(lines[n].text, "--- ") && strings.HasPrefix(lines[n+1].text, "+++ ") {
		oldPath, newPath = diffPath(lines[n].text[4:]), diffPath(lines[n+1].text[4:])
		n += 2
	}
	if renameFrom != "" && renameTo != "" {
		oldPath, newPath = "a/"+renameFrom, "b/"+renameTo
	}
	if strings.HasPrefix(oldPath, "a/") && (strings.HasPrefix(newPath, "b/") || newPath == "/dev/null") || oldPath == "/dev/null" && strings.HasPrefix(newPath, "b/") {
		oldPath, newPath = strings.TrimPrefix(oldPath, "a/"), strings.TrimPrefix(newPath, "b/")
	}
	op := FileOp{Kind: Update, Path: oldPath, Line: num}
	switch {
	case oldPath == "/dev/null" || created:
		op = FileOp{Kind: Add, Path: newPath, Line: num}
	case newPath == "/dev/null" || deleted:
		op = FileOp{Kind: Delete, Path: oldPath, Line: num}
	case newPath != oldPath:
		op.MoveTo = newPath
	}
	if op.Path == "" || op.Path == "/dev/null" {
		return FileOp{}, 0, invalidHunk(num, "the unified diff's file header names no file. Give '--- a/PATH' and '+++ b/PATH' lines (or '--- /dev/null' for a new file, '+++ /dev/null' for a deleted one).")
	}
	return op, n, nil
}

// diffPath is a unified diff header's path: without the timestamp diff(1)
// puts after a tab, and without surrounding space.
func diffPath(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	return strings.TrimSpace(s)
}

// parseHunk reads one hunk starting at lines[0] and returns it with the
// number of lines it took. Only the first hunk of a file may omit "@@".
//
// Where Codex's grammar would refuse, it reads: "@@header" as "@@ header";
// a unified diff's "@@ -a,b +c,d @@ ..." as a bare "@@" (the line numbers
// ignored: hunks are searched for as always); a line starting with none of
// ' ', '-', '+' (and not a marker: "@@", "***") as a context line whose
// leading space was lost (counted in Hunk.Bare); and git's "\ No newline
// at end of file" as nothing (the file's last line keeps its state).
func (r *reader) parseHunk(lines []patchLine, first bool) (Hunk, int, error) {
	var h Hunk
	n := 0
	var headers []string
	for n < len(lines) {
		t := lines[n].text
		if t == bareContextMarker {
			headers = append(headers, "")
		} else if unifiedRange().MatchString(t) {
			if !r.unified {
				r.numbered++
			}
			headers = append(headers, "")
		} else if c, ok := strings.CutPrefix(t, contextMarker); ok {
			// An "@@ " followed by nothing but whitespace is a bare "@@":
			// searching for a blank line is never what was meant.
			if strings.TrimSpace(c) == "" {
				c = ""
			}
			headers = append(headers, c)
		} else if c, ok := strings.CutPrefix(t, bareContextMarker); ok && !strings.HasPrefix(c, "@") {
			r.noSpace++
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
body:
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
			if r.unified && unifiedStart(lines[n:]) {
				break body // the next file of a unified diff
			}
			h.Lines = append(h.Lines, Line{Op: t[0], Text: t[1:]})
			n++
			continue
		}
		if t == noNewline {
			n++
			continue
		}
		if strings.HasPrefix(t, bareContextMarker) || strings.HasPrefix(strings.TrimSpace(t), "***") || r.unified && strings.HasPrefix(t, "diff ") {
			if n == start {
				return Hunk{}, 0, invalidHunk(lines[n].num, "Unexpected line found in update hunk: '%s'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)", t)
			}
			break // the next hunk or file operation
		}
		// A context line that lost its leading space.
		h.Lines = append(h.Lines, Line{Op: ' ', Text: t})
		h.Bare++
		n++
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

// noNewline is the line diff and git put after a line that has no newline.
const noNewline = "\\ No newline at end of file"

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
