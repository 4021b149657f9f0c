package applypatch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/ops/match"
)

// laddered is a hunk placed by the shared ladder's later stages: the
// file's lines [from, to) become added, already adapted.
type laddered struct {
	from, to int
	added    []string
	note     Forgiven
}

// placeByLadder looks for hunk hi of op (context and removed lines old,
// all lines lines) from line cursor on with the shared ladder
// (ops/match), after Codex's ladder and the retries above found it
// nowhere: the stages Codex lacks (runs of spaces inside a line, each
// line's indentation off by a different amount, a block similar above
// match.SimilarityThreshold with its first and last lines as anchors)
// find it there. Its new text (context and added lines) is adapted the
// way it matched (match.Match.Replacement: a context line as the file has
// it, a line the patch skipped kept). Nothing found: nil. Several places:
// a Failure wrapping ErrNoMatch that names them, for a forgiven match is
// never chosen among several. A hunk at the end of the file, or one that
// only adds lines, is not looked for here.
func (f *fileLines) placeByLadder(op FileOp, hi int, h Hunk, lines []Line, cursor int) (*laddered, *Failure) {
	old := oldLines(lines)
	if len(old) == 0 || h.EndOfFile || cursor >= len(f.lines) {
		return nil, nil
	}
	region := strings.Join(f.lines[cursor:], "\n") + "\n"
	m, err := match.Find([]byte(region), strings.Join(old, "\n")+"\n", match.All)
	if errors.Is(err, match.ErrNotFound) || errors.Is(err, match.ErrEmpty) || err != nil {
		return nil, nil
	}
	// A patch's lines are whole lines: a place that begins inside a line
	// (Exact and Escapes find text anywhere) is not one.
	whole := m.LinePlaces([]byte(region))
	if len(whole) == 0 {
		return nil, nil
	}
	if len(whole) > 1 || m.Count > len(m.Places) {
		at := make([]string, 0, len(whole))
		for k, i := range whole {
			if k == maxOthers {
				at = append(at, "…")
				break
			}
			at = append(at, strconv.Itoa(cursor+m.Places[i].Line))
		}
		return nil, &Failure{Err: ErrNoMatch, Path: op.Path, Hunk: hi + 1, Lines: old, Message: fmt.Sprintf(
			"Failed to find expected lines in %s as written; forgiving %s (the matching ladder's %s stage) they occur at %d places (lines %s), and a forgiven match is not chosen among several. Nothing was changed: the whole patch was refused. Re-read %s and send hunk %d of %d with the lines as they are, or with an '@@' header naming a line just before the place you mean.",
			op.Path, m.Places[whole[0]].Forgave, m.Stage, len(whole), strings.Join(at, ", "), op.Path, hi+1, len(op.Hunks))}
	}
	pi := whole[0]
	p := m.Places[pi]
	var repl []string
	for _, l := range lines {
		if l.Op != '-' {
			repl = append(repl, l.Text)
		}
	}
	text := ""
	if len(repl) > 0 {
		text = strings.Join(repl, "\n") + "\n"
	}
	adapted := m.Replacement(pi, text)
	var added []string
	if adapted != "" {
		added = strings.Split(strings.TrimSuffix(adapted, "\n"), "\n")
	}
	from, to := cursor+p.Line-1, cursor+p.EndLine
	return &laddered{from: from, to: to, added: added, note: Forgiven{
		Text:    fmt.Sprintf("Hunk %d of %s matched at line %d at the matching ladder's %s stage, forgiving %s; its lines were written as the file has those it repeats.", hi+1, op.Path, from+1, m.Stage, p.Forgave),
		Trailer: fmt.Sprintf("%s: hunk %d of %s at line %d, %s", m.Stage, hi+1, op.Path, from+1, p.Forgave),
	}}, nil
}
