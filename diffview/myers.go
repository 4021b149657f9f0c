package diffview

import (
	"strconv"

	"github.com/hexops/gotextdiff"
	"github.com/hexops/gotextdiff/myers"
	"github.com/hexops/gotextdiff/span"
)

// A window the cost guard admits is diffed by gotextdiff, whose result is
// replayed over the window, line by line, before it is trusted.

// windowURI names the window for gotextdiff, which requires a name but
// does not use it; built once since building it is not free.
var windowURI = span.URIFromPath("/window")

// appendMyers appends the runs of gotextdiff's Myers diff between the lines
// of old and new delimited by the offsets a and b (see lineStarts) and
// numbered aIDs and bIDs (see lineIDs). It reports false, leaving runs
// unchanged, if gotextdiff panics or returns a script that does not turn
// exactly those old lines into those new lines; the caller then falls back
// to a replacement, so a bug there can cost diff quality, not correctness.
func appendMyers(runs []run, a, b []int, aIDs, bIDs []int32) (out []run, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = runs, false
		}
	}()

	// Myers sees each line as its number, so comparing two lines takes
	// constant time however long and alike they are.
	aText, aTok := tokens(aIDs)
	bText, bTok := tokens(bIDs)
	edits := myers.ComputeEdits(windowURI, aText, bText)
	u := gotextdiff.ToUnified("a", "b", aText, edits)

	// Replay the hunks over the window, checking every line: between hunks
	// old and new lines must pair up as equal. The runs are collected apart
	// since appendRun may extend the last of runs in place.
	var window []run
	i, j := 0, 0 // next line of a and of b
	emit := func(sign byte) {
		if sign == '+' {
			window = appendRun(window, run{sign: sign, start: b[j], end: b[j+1], lines: 1})
		} else {
			window = appendRun(window, run{sign: sign, start: a[i], end: a[i+1], lines: 1})
		}
	}
	equalUntil := func(to int) bool {
		if to < i || to > len(aTok) || to-i > len(bTok)-j {
			return false
		}
		for ; i < to; i, j = i+1, j+1 {
			if aTok[i] != bTok[j] {
				return false
			}
			emit(' ')
		}
		return true
	}
	for _, h := range u.Hunks {
		if !equalUntil(h.FromLine - 1) {
			return runs, false
		}
		for _, l := range h.Lines {
			oldOK := i < len(aTok) && aTok[i] == l.Content
			newOK := j < len(bTok) && bTok[j] == l.Content
			switch {
			case l.Kind == gotextdiff.Equal && oldOK && newOK:
				emit(' ')
				i, j = i+1, j+1
			case l.Kind == gotextdiff.Delete && oldOK:
				emit('-')
				i++
			case l.Kind == gotextdiff.Insert && newOK:
				emit('+')
				j++
			default:
				return runs, false
			}
		}
	}
	if !equalUntil(len(aTok)) || j != len(bTok) {
		return runs, false
	}
	for _, r := range window {
		runs = appendRun(runs, r)
	}
	return runs, true
}

// tokens returns the text of one line "<id>\n" per id, for gotextdiff, and
// each of those lines.
func tokens(ids []int32) (text string, lines []string) {
	buf := make([]byte, 0, 8*len(ids))
	ends := make([]int, len(ids))
	for i, id := range ids {
		buf = strconv.AppendInt(buf, int64(id), 10)
		buf = append(buf, '\n')
		ends[i] = len(buf)
	}
	text = string(buf)
	lines = make([]string, len(ids))
	start := 0
	for i, end := range ends {
		lines[i], start = text[start:end], end
	}
	return text, lines
}
