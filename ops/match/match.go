// Package match is the matching ladder every string dialect uses to find
// the text an agent quoted (text_editor's str_replace, Edit and MultiEdit,
// code_edit's SEARCH blocks, apply_patch's hunks).
//
// Agents copy text imperfectly: trailing spaces dropped, indentation off,
// curly quotes for straight ones, `\n` escaped twice, a line skipped. Find
// climbs a fixed ladder of stages, the cheapest and safest first; the first
// stage that finds the needle wins, and every place it finds there is
// reported, so a caller refuses an ambiguous match with every candidate's
// line instead of silently taking the first. A dialect enables only the
// stages that are safe for it (Stages).
//
// Nothing here touches the disk: every function is pure over bytes, never
// modifies its inputs, and never panics on any input.
package match

import (
	"bytes"
	"errors"

	"github.com/git-edit/git-edit/ops/text"
)

// Stage is one rung of the ladder. The constants are in ladder order: Find
// tries them in that order.
type Stage int

const (
	// Exact: byte for byte, except that in a CRLF file a needle written
	// with "\n" matches "\r\n" (text.FindExact).
	Exact Stage = iota
	// TrailingSpace: spaces and tabs at the end of each line ignored.
	TrailingSpace
	// Unicode: text equal after Unicode normalization (NFC) with
	// typographic punctuation (curly quotes, dashes, non-breaking and other
	// Unicode spaces) read as ASCII.
	Unicode
	// Indentation: each line's leading whitespace ignored (one offset for
	// the block, or a different one per line, or a 2-space block in a
	// 4-space file); the replacement is re-indented the same way.
	Indentation
	// InnerSpace: runs of spaces and tabs inside a line read as one space.
	InnerSpace
	// Escapes: a needle escaped once too often (`\n`, `\t`, `\"`, `\'`,
	// `\\` sent where the file has a newline, a tab, a quote, a
	// backslash); the replacement is unescaped the same way.
	Escapes
	// Similar: a block of lines similar to the needle's (a typo, a line
	// skipped or added), its first and last lines equal as anchors, above
	// SimilarityThreshold.
	Similar

	numStages
)

// SimilarityThreshold is the least similarity (0 to 1) the Similar stage
// accepts a block at. Below it nothing matches.
const SimilarityThreshold = 0.9

var stageNames = [numStages]string{
	Exact:         "exact",
	TrailingSpace: "trailing whitespace",
	Unicode:       "unicode",
	Indentation:   "indentation",
	InnerSpace:    "inner whitespace",
	Escapes:       "escapes",
	Similar:       "similarity",
}

// String is the stage's name as results and commit trailers give it.
func (s Stage) String() string {
	if s < 0 || s >= numStages {
		return "unknown"
	}
	return stageNames[s]
}

// Stages is a set of stages: the ones a dialect enables.
type Stages uint

// Of is the set of the stages given. Exact is always tried, in or out.
func Of(s ...Stage) Stages {
	var set Stages
	for _, st := range s {
		set |= 1 << st
	}
	return set
}

// All enables every stage.
const All Stages = 1<<numStages - 1

// Has reports whether s enables st.
func (s Stages) Has(st Stage) bool { return s&(1<<st) != 0 }

// ErrNotFound: the needle matched nowhere at any enabled stage.
var ErrNotFound = errors.New("text not found")

// ErrEmpty: an empty needle, which matches nowhere.
var ErrEmpty = errors.New("empty text to find")

// Place is one place where a needle matched.
type Place struct {
	// Start and End are the bytes of content matched: content[Start:End]
	// is what a replacement replaces.
	Start, End int
	// Line and EndLine are the first and last lines matched (1-based).
	Line, EndLine int
	// Forgave says what this place differs from the needle in, for the
	// agent ("a missing leading space on 3 lines"); "" at Exact. A match
	// with more than 100 places describes only the first 100 (a caller
	// refuses such a match naming lines, not what each forgave).
	Forgave string
	// Score is the place's similarity (1 except at Similar).
	Score float64

	adapt func(replacement string) string
}

// StartsALine reports whether p starts where a line of content does (at
// its start, after its BOM, or after a line break): a caller that
// replaces whole lines must not take a place that begins inside a line,
// which Exact, and Escapes' exact try, find anywhere.
func (p Place) StartsALine(content []byte) bool {
	return p.Start == text.BOMLen(content) || p.Start > 0 && content[p.Start-1] == '\n'
}

// LinePlaces is the indexes into m.Places of the places that start a line
// of content (Place.StartsALine), for callers that replace whole lines.
func (m *Match) LinePlaces(content []byte) []int {
	var whole []int
	for i, p := range m.Places {
		if p.StartsALine(content) {
			whole = append(whole, i)
		}
	}
	return whole
}

// MaxPlaces caps the places a Match holds: a one-byte needle in a 10 MB
// file of that byte matches ten million times, and a caller refusing an
// ambiguous match needs the count and the first lines, not every place.
// A caller that must visit every exact place (replace_all) streams them
// with text.FindExactSeq when Count > len(Places).
const MaxPlaces = 10000

// Match is what Find found. Replacement may be called for any of its
// places, any number of times, but not from several goroutines at once
// (a place computes what adapting needs on first use).
type Match struct {
	// Stage is the stage that matched.
	Stage Stage
	// Places are the places the needle matched at Stage, in file order, the
	// first MaxPlaces of them; places may overlap (in "aaa", "aa" matches
	// at 0 and 1).
	Places []Place
	// Count is the number of places the needle matched at Stage; it
	// exceeds len(Places) only when there are more than MaxPlaces.
	Count int
}

// Unique reports whether the needle matched exactly one place.
func (m *Match) Unique() bool { return m.Count == 1 }

// Replacement returns replacement adapted to place i the way the needle
// was matched there: re-indented as the indentation was forgiven, unescaped
// as the needle was, and with each replacement line that repeats a needle
// line given as that line is in the file (so characters forgiven on an
// unchanged line are kept as the file has them). At Exact it is
// replacement with its lone "\n" written as the file's line ending.
func (m *Match) Replacement(i int, replacement string) string {
	if i < 0 || i >= len(m.Places) || m.Places[i].adapt == nil {
		return replacement
	}
	return m.Places[i].adapt(replacement)
}

// Find climbs the ladder for needle in content: Exact first, then each
// stage enabled in stages, in ladder order. It returns the places of the
// first stage that matches anywhere, or ErrNotFound (ErrEmpty for an
// empty needle). When Exact matches, it costs one text.FindExactSeq.
//
// The line-based stages (TrailingSpace, Unicode, Indentation, InnerSpace)
// are cumulative: each compares lines under its own normalization and
// those of every enabled stage before it. They compare whole lines: a
// needle matches there only as a run of the file's complete lines (its
// first line from the start of a file line, its last to the end of one),
// so a place is never part of a line. A needle ending with a line ending
// takes the last line's line ending too. A needle without a line ending
// is also searched inside lines at Unicode and InnerSpace (inline.go),
// before the whole-line comparison. Escapes reads the needle
// unescaped and tries Exact and the enabled line-based stages again;
// Similar compares blocks of lines (similar.go).
func Find(content []byte, needle string, stages Stages) (*Match, error) {
	if needle == "" {
		return nil, ErrEmpty
	}
	if m := findExact(content, needle, Exact, nil); m != nil {
		return m, nil
	}
	nl := splitLines(needle)
	f := newFileView(content, nl.lines)
	if m := climbLines(content, f, needle, nl, stages, nil); m != nil {
		return m, nil
	}
	if stages.Has(Escapes) {
		if u, esc := unescapeNeedle(needle); esc != nil && u != "" {
			if m := findExact(content, u, Escapes, esc); m != nil {
				return m, nil
			}
			unl := splitLines(u)
			if m := climbLines(content, f.forNeedle(unl.lines), u, unl, stages, esc); m != nil {
				return m, nil
			}
		}
	}
	n := lineNorms(stages)
	if stages.Has(Similar) {
		if m := findSimilar(f, nl, n); m != nil {
			return m, nil
		}
	}
	return nil, ErrNotFound
}

// findExact is the Exact stage (or, with esc, Escapes' exact try of the
// unescaped needle): text.FindExactSeq's places, the first MaxPlaces kept.
// It counts lines as it goes instead of indexing them, so its memory is
// bounded by MaxPlaces, not by the content.
func findExact(content []byte, needle string, stage Stage, esc *escapes) *Match {
	offs, matched, _ := text.FindExactSeq(content, needle)
	// The file's line ending is looked up only when a replacement is
	// adapted: a Find that only counts places costs one search.
	adapt := func(r string) string { return text.ToEOL(r, text.DetectEOL(content)) }
	forgave := ""
	if esc != nil {
		adapt = func(r string) string { return text.ToEOL(esc.unescape(r), text.DetectEOL(content)) }
		forgave = esc.describe()
	}
	m := &Match{Stage: stage}
	line, pos := 1, 0
	for off := range offs {
		m.Count++
		if len(m.Places) >= MaxPlaces {
			continue
		}
		line += bytes.Count(content[pos:off], newline)
		pos = off
		end := off + len(matched)
		endLine := line + bytes.Count(content[off:max(off, end-1)], newline)
		m.Places = append(m.Places, Place{Start: off, End: end, Line: line, EndLine: endLine, Forgave: forgave, Score: 1, adapt: adapt})
	}
	if m.Count == 0 {
		return nil
	}
	return m
}

var newline = []byte("\n")

// lineNorms is the normalizations of every line-based stage enabled.
func lineNorms(stages Stages) norms {
	var n norms
	for st := TrailingSpace; st <= InnerSpace; st++ {
		if stages.Has(st) {
			n |= normOf[st]
		}
	}
	return n
}

// climbLines climbs the line-based stages enabled (and the in-line
// search at Unicode and InnerSpace), returning the first stage's match;
// with esc, the needle is the unescaped one and the match is Escapes'.
//
// Every line of the file is keyed once, under all the enabled stages'
// normalizations together: a place at an earlier stage is a place there
// too (each normalization only equates more), so the earlier stages only
// check those candidates under their own normalization instead of keying
// the whole file again.
func climbLines(content []byte, f *fileView, needle string, nl needleLines, stages Stages, esc *escapes) *Match {
	full := lineNorms(stages)
	if full == 0 {
		return nil
	}
	cands, count := f.findLines(nl, full)
	var n norms
	for st := TrailingSpace; st <= InnerSpace; st++ {
		if !stages.Has(st) {
			continue
		}
		n |= normOf[st]
		stage := st
		if esc != nil {
			stage = Escapes
		}
		if normOf[st]&inlineNorms != 0 {
			if m := findInline(content, needle, n, stage, esc); m != nil {
				return m
			}
		}
		if count == 0 {
			continue
		}
		firsts, c := cands, count
		switch {
		case n == full:
		case count > len(cands) || len(cands)*len(nl.lines) > 4*f.count()+1024:
			// More than MaxPlaces, or checking them would cost more than
			// keying the whole file again: key the file under n.
			firsts, c = f.findLines(nl, n)
		default:
			firsts = verify(f, nl, n, cands)
			c = len(firsts)
		}
		if n&nIndent != 0 {
			kept := keepNesting(f, nl, firsts)
			c -= len(firsts) - len(kept)
			firsts = kept
		}
		if c == 0 {
			continue
		}
		m := &Match{Stage: stage, Count: c}
		for k, first := range firsts {
			m.Places = append(m.Places, newLineMatch(f, nl, n, first, stage, esc).place(k < maxDescribed))
		}
		return m
	}
	return nil
}

// verify returns the candidates (first lines of places under a larger
// normalization) where the needle's lines equal the file's under n.
func verify(f *fileView, nl needleLines, n norms, cands []int) []int {
	keys := make([]string, len(nl.lines))
	for i, l := range nl.lines {
		keys[i] = n.key(l)
	}
	var ok []int
next:
	for _, c := range cands {
		for i, k := range keys {
			if f.key(c+i, n) != k {
				continue next
			}
		}
		ok = append(ok, c)
	}
	return ok
}
