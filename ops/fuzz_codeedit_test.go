package ops_test

// The fuzz targets of code_edit, whole calls and its matcher, and what
// README promises of them.

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCodeEdit: one or two SEARCH/REPLACE edits, in the single-edit form or
// in "edits", on f.txt and a second file (new, other.txt or f.txt again):
// all or nothing across files.
func FuzzCodeEdit(f *testing.F) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, mode uint8, search1, replace1, search2, replace2 string) {
		r := env.get(t)
		r.reset(t, content)
		path2 := []string{"new.txt", "other.txt", "sub/new.txt", "f.txt"}[int(mode)/4%4]
		e1 := map[string]any{"file_path": "f.txt", "search": search1, "replace": replace1}
		e2 := map[string]any{"file_path": path2, "search": search2, "replace": replace2}
		var args map[string]any
		switch mode % 4 {
		case 0:
			args = e1
		case 1:
			args = map[string]any{"edits": []any{e1}}
		case 2:
			e2["file_path"] = "f.txt"
			args = map[string]any{"edits": []any{e1, e2}}
		case 3:
			args = map[string]any{"edits": []any{e1, e2}}
		}
		c := r.run(t, "code_edit", fuzzJSON(t, args), "")

		s, sr := string(content), sent(replace1)
		switch {
		case isBinary(content):
			mustRefuse().check(t, c, content)
		case mode%4 == 0 && plainLF(content) && strings.TrimSpace(search1) == "" && !strings.Contains(sr, "\r") && !hasWrapperLine(sr):
			// A blank search appends, on a line of its own.
			want := s + sr
			if s != "" && !strings.HasSuffix(s, "\n") && sr != "" {
				want = s + "\n" + sr
			}
			mustBecome(want).check(t, c, content)
		}
		// An empty search on a new file creates it with replace, byte for
		// byte, in the same commit as the other edit.
		if sr2 := sent(replace2); mode%4 == 3 && c.res.OK && strings.Contains(path2, "new.txt") &&
			strings.TrimSpace(search2) == "" && !hasWrapperLine(sr2) {
			if got := c.after.get(path2); got != sr2 {
				t.Fatalf("code_edit %s: %s is %s, want %s", quoteArgs(c.args), path2, shorten(got), shorten(sr2))
			}
		}
	})
}

// hasWrapperLine reports whether text has a line code_edit may strip as a
// wrapper pasted around a block (fences, conflict markers, the file name),
// or an elision line.
func hasWrapperLine(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"```", "<<<<<<<", "=======", ">>>>>>>", "...", "f.txt"} {
			if strings.Contains(l, p) {
				return true
			}
		}
	}
	return false
}

// FuzzMatcher: code_edit's matcher against fuzzed file content, with a
// search made of whole lines of the file (from, count), sent as they are
// or as agents mangle them (how): trailing whitespace dropped, CRLF written
// as LF, indentation removed or added, a blank first line, ``` fences, a
// filename line. README says every one of these matches; this checks those
// it states plainly, and the exact bytes of a verbatim match.
func FuzzMatcher(f *testing.F) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, from, count uint16, how uint8, replace string) {
		r := env.get(t)
		r.reset(t, content)
		body := string(content)
		if strings.HasPrefix(body, "\uFEFF") {
			body = body[3:]
		}
		lines := splitLines(body)
		var chunk []string
		if len(lines) > 0 {
			i := int(from) % len(lines)
			chunk = lines[i : i+1+int(count)%min(len(lines)-i, 8)]
		}
		how %= 8
		search := mangle(chunk, how)
		c := r.run(t, "code_edit", fuzzJSON(t, map[string]any{"file_path": "f.txt", "search": search, "replace": replace}), "f.txt")

		verbatim := joinLines(chunk)
		switch {
		case isBinary(content):
			mustRefuse().check(t, c, content)
			return
		case len(chunk) == 0 || strings.TrimSpace(verbatim) == "" || !utf8.ValidString(search):
			return
		case how == 2 && strings.Contains(strings.ReplaceAll(verbatim, "\r\n", ""), "\r"):
			return // a lone "\r" at the end of a line's text: CRLF to LF changes that text
		default:
			if !c.res.OK {
				t.Fatalf("search %s, lines %d-%d of the file (mangled by %d), was refused: %s\ncontent %s",
					strconv.Quote(search), int(from)%len(lines)+1, int(from)%len(lines)+len(chunk), how, c.res.Text, shorten(string(content)))
			}
		}
		// A verbatim search of whole lines in an LF file ending with "\n",
		// replaced by whole lines: the first place those lines occur gets
		// exactly replace.
		if how != 0 || !plainLF(content) || !strings.HasSuffix(body, "\n") || sent(replace) != replace ||
			strings.Contains(replace, "\r") || (replace != "" && !strings.HasSuffix(replace, "\n")) || hasWrapperLine(replace) {
			return
		}
		for i := 0; i+len(chunk) <= len(lines); i++ {
			if slices.Equal(lines[i:i+len(chunk)], chunk) {
				mustBecome(joinLines(lines[:i])+replace+joinLines(lines[i+len(chunk):])).check(t, c, content)
				return
			}
		}
	})
}

// mangle turns whole lines of a file into a search as an agent might send
// them.
func mangle(chunk []string, how uint8) string {
	var sb strings.Builder
	each := func(fn func(text, eol string) string) string {
		for _, l := range chunk {
			text, eol := l, ""
			switch {
			case strings.HasSuffix(l, "\r\n"):
				text, eol = l[:len(l)-2], "\r\n"
			case strings.HasSuffix(l, "\n"):
				text, eol = l[:len(l)-1], "\n"
			}
			sb.WriteString(fn(text, eol))
		}
		return sb.String()
	}
	switch how {
	case 1: // trailing whitespace dropped
		return each(func(text, eol string) string { return strings.TrimRight(text, " \t") + eol })
	case 2: // CRLF written as LF
		return each(func(text, eol string) string { return text + strings.TrimPrefix(eol, "\r") })
	case 3: // the common leading whitespace removed
		prefix := ""
		for i, l := range chunk {
			if strings.TrimSpace(l) == "" {
				continue
			}
			ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			if i == 0 || prefix == "" {
				prefix = ind
			}
			for !strings.HasPrefix(ind, prefix) {
				prefix = prefix[:len(prefix)-1]
			}
		}
		return each(func(text, eol string) string { return strings.TrimPrefix(text, prefix) + eol })
	case 4: // four spaces added to every non-blank line
		return each(func(text, eol string) string {
			if strings.TrimSpace(text) == "" {
				return text + eol
			}
			return "    " + text + eol
		})
	case 5: // a blank first line
		return "\n" + joinLines(chunk)
	case 6: // in ``` fences
		s := joinLines(chunk)
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		return "```\n" + s + "```\n"
	case 7: // after a line naming the file
		return "f.txt\n" + joinLines(chunk)
	}
	return joinLines(chunk)
}
