package codeedit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	ladder "github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// laterStages are the rungs of the shared ladder (ops/match) that run
// after this format's own stages (aider's: exact, trailing whitespace,
// indentation, blank first and last lines) found nothing: the others it
// lacks (unicode, inner whitespace, escapes, and indentation off by a
// different amount per line). Find climbs from the start with each of its
// stages but similarity on, so a line needing both a forgiven indent and
// a curly quote matches at unicode. Similarity is off, as for
// text_editor: the seed says SEARCH must match character for character
// and a search that does not is an error, so a typo stays "not found",
// with the closest lines shown.
var laterStages = ladder.All &^ ladder.Of(ladder.Similar)

// matchLater looks for search (lines S, no `...` lines) with the shared
// ladder after this format's own stages found nothing. One place: its
// Planned, replace adapted the way search was matched
// (ladder.Match.Replacement), ok. No place: ok false. Several: an error
// wrapping ErrAmbiguous naming them: unlike aider's own stages, whose
// first match wins as the seed says, a forgiven match is never taken
// silently from several.
func (f *file) matchLater(S, R []string) (Planned, bool, error) {
	needle := strings.Join(S, "\n") + "\n"
	m, err := ladder.Find(f.b, needle, laterStages)
	if errors.Is(err, ladder.ErrNotFound) || errors.Is(err, ladder.ErrEmpty) {
		return Planned{}, false, nil
	}
	if err != nil {
		return Planned{}, false, err
	}
	// SEARCH is whole lines: a place that begins inside a line (Exact and
	// Escapes find text anywhere) is not one.
	whole := m.LinePlaces(f.b)
	if len(whole) == 0 {
		return Planned{}, false, nil
	}
	if len(whole) > 1 || m.Count > len(m.Places) {
		lines := make([]string, 0, len(whole))
		for k, i := range whole {
			if k == 10 {
				lines = append(lines, "…")
				break
			}
			lines = append(lines, strconv.Itoa(m.Places[i].Line))
		}
		return Planned{}, false, fmt.Errorf("%w: search was not found as written; at the matching ladder's %s stage it matches %d places (lines %s), and a forgiven match is not chosen among several; nothing was changed. Include more surrounding lines in search so that it matches one place, as the file has them",
			ErrAmbiguous, m.Stage, len(whole), strings.Join(lines, ", "))
	}
	pi := whole[0]
	p := m.Places[pi]
	repl := ""
	if len(R) > 0 {
		repl = strings.Join(R, "\n") + "\n"
	}
	adapted := m.Replacement(pi, repl)
	r := Planned{Stage: m.Stage.String(), Line: p.Line, EndLine: p.EndLine}
	if adapted != string(f.b[p.Start:p.End]) {
		r.Edits = []text.Edit{{Start: p.Start, End: p.End, New: adapted}}
	}
	what := "Replaced"
	if len(r.Edits) == 0 {
		what = "The SEARCH block matched, and REPLACE is the same text there, so nothing changed at"
	}
	r.Message = fmt.Sprintf("%s %s (matched at the matching ladder's %s stage, forgiving %s).", what, lineRange(p.Line, p.EndLine), m.Stage, p.Forgave)
	r.Matched = m.Stage.String() + ": " + p.Forgave
	return r, true, nil
}
