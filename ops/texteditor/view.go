package texteditor

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/text"
	"github.com/git-edit/git-edit/ops/texteditor/internal/lang"
)

// RenderView returns what view shows an agent: the file's text (without its
// BOM, otherwise byte for byte, no line numbers) in a fenced Markdown code
// block tagged with the file's language (see CodeBlock). path is used for
// language detection and error messages.
//
// viewRange is nil for the whole file, or [start, end]: 1-based inclusive
// lines, end -1 meaning the last line. start and end must lie within the
// file's lines (no clamping); an empty file has no lines to range over.
//
// Limits: a whole-file view refuses a file larger than MaxViewBytes or with
// more than MaxViewChars characters; a ranged view refuses a range whose text
// has more than MaxViewChars characters. Those errors wrap ErrTooLarge; range
// errors wrap ErrOutOfRange; a malformed viewRange wraps ErrInvalidArgs.
func RenderView(path string, content []byte, viewRange []int) (string, error) {
	body := content[text.BOMLen(content):]
	if viewRange == nil {
		if len(content) > MaxViewBytes {
			return "", fmt.Errorf("%w: %s is %s bytes, more than the %s-byte (400 KiB) limit for viewing a whole file; view part of it with \"view_range\": [start, end] (it has %s)",
				ErrTooLarge, path, thousands(len(content)), thousands(MaxViewBytes), plural(text.LineCount(content), "line"))
		}
		if n := utf8.RuneCount(body); n > MaxViewChars {
			return "", fmt.Errorf("%w: %s has %s characters, more than the %s-character limit for viewing a whole file; view part of it with \"view_range\": [start, end] (it has %s)",
				ErrTooLarge, path, thousands(n), thousands(MaxViewChars), plural(text.LineCount(content), "line"))
		}
		return CodeBlock(path, content), nil
	}

	if len(viewRange) != 2 {
		return "", invalid(`"view_range" must have exactly 2 numbers, got %d; use [start, end] with 1-based line numbers, or [start, -1] to view to the end of the file`, len(viewRange))
	}
	start, end := viewRange[0], viewRange[1]
	x := text.NewLineIndex(content)
	n := x.Count()
	switch {
	case n == 0:
		return "", fmt.Errorf("%w: %s is empty, so it has no lines to show; view it without \"view_range\"", ErrOutOfRange, path)
	case start < 1 || start > n:
		return "", fmt.Errorf("%w: view_range start %d is outside %s, which has %s; use a start from 1 to %d",
			ErrOutOfRange, start, path, plural(n, "line"), n)
	case end == -1:
		end = n
	case end < start || end > n:
		return "", fmt.Errorf("%w: view_range end %d is outside %s, which has %s; use an end from %d to %d, or -1 for the last line",
			ErrOutOfRange, end, path, plural(n, "line"), start, n)
	}
	from, _ := x.Start(start)
	_, _, to, _ := x.Bounds(end, content)
	text := content[from:to]
	if c := utf8.RuneCount(text); c > MaxViewChars {
		return "", fmt.Errorf("%w: lines %d to %d of %s have %s characters, more than the %s-character limit for a view; view fewer lines with a smaller \"view_range\"",
			ErrTooLarge, start, end, path, thousands(c), thousands(MaxViewChars))
	}
	return fence(FenceTag(path, content), text), nil
}

// CodeBlock returns content (without its BOM, otherwise byte for byte) as a
// fenced Markdown code block tagged with FenceTag(path, content), with no
// limits applied. A newline is added before the closing fence when the text
// lacks one; the block itself ends with the closing fence (no newline after).
func CodeBlock(path string, content []byte) string {
	return fence(FenceTag(path, content), content[text.BOMLen(content):])
}

// fence wraps text in a backtick fence longer than any backtick run that
// starts a line of text (after up to three spaces, as CommonMark allows for
// a closing fence), so the content can never close the block early.
func fence(tag string, text []byte) string {
	longest := 0
	for line := text; len(line) > 0; {
		i := 0
		for i < 3 && i < len(line) && line[i] == ' ' {
			i++
		}
		run := 0
		for i+run < len(line) && line[i+run] == '`' {
			run++
		}
		longest = max(longest, run)
		nl := bytes.IndexByte(line, '\n')
		if nl < 0 {
			break
		}
		line = line[nl+1:]
	}
	f := strings.Repeat("`", max(3, longest+1))
	var b strings.Builder
	b.Grow(len(text) + 2*len(f) + len(tag) + 2)
	b.WriteString(f)
	b.WriteString(tag)
	b.WriteByte('\n')
	b.Write(text)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(f)
	return b.String()
}

// FenceTag returns the Markdown info string for a file: the language
// GitHub linguist's data gives the file's base name and its first
// LanguageHeadBytes (BOM skipped), as a tag: the lower-cased language name
// with spaces as "-" ("go", "python", "shell") when that is a plain word of
// [a-z0-9._-], else the first such alias (C++ -> "cpp", C# -> "csharp"). An
// unknown language gives "".
//
// The answer is go-enry's, from tables generated at build time (package
// lang), except where go-enry would choose among several candidates with
// its token classifier: there the candidate with the classifier's highest
// prior is taken (see package lang for exactly where the two can differ).
//
// Linguist's first alias is not used first because it is often not the usual
// tag (Go's is "golang", Python's "py", JSON's "geojson").
func FenceTag(path string, content []byte) string {
	head := content[text.BOMLen(content):]
	if len(head) > LanguageHeadBytes {
		head = head[:LanguageHeadBytes]
	}
	return lang.Tag(filepath.Base(path), head)
}
