package ops_test

// The fuzz target of text_editor, and what README promises of it.

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/git-edit/git-edit/ops/match"
)

var textEditorCommands = []string{"view", "write", "create", "str_replace", "insert", "undo_edit"}

// FuzzTextEditor: a text_editor command on f.txt (or a new file, or f.txt
// by another spelling of its path) built from fuzzed strings and numbers.
func FuzzTextEditor(f *testing.F) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, command uint8, old, new string, line, end int64) {
		r := env.get(t)
		r.reset(t, content)
		cmd := textEditorCommands[int(command)%len(textEditorCommands)]
		paths := []string{"f.txt", "f.txt", "new.txt", "sub/dir/new.txt", filepath.Join(r.dir, "f.txt"), "./sub/../f.txt", "other.txt"}
		path := paths[int(command)/len(textEditorCommands)%len(paths)]
		onF := path != "new.txt" && path != "sub/dir/new.txt" && path != "other.txt"
		args := map[string]any{"command": cmd, "path": path}
		switch cmd {
		case "view":
			if line != 0 || end != 0 {
				args["view_range"] = []int64{line, end}
			}
		case "write", "create":
			args["file_text"] = new
		case "str_replace":
			args["old_str"], args["new_str"] = old, new
		case "insert":
			args["insert_line"], args["new_str"] = line, new
		}
		c := r.run(t, "text_editor", fuzzJSON(t, args), path)

		// What README promises, where it is simple to state.
		var x expectation
		o, n, s := sent(old), sent(new), string(content)
		plain := plainLF(content) && !strings.Contains(o+n, "\r")
		switch {
		case !onF:
			switch {
			case (cmd == "write" || cmd == "create") && path != "other.txt":
				x = mustBecome(n).at(path) // a new file gets file_text byte for byte
			case cmd == "create":
				x = mustRefuse()
			}
		case isBinary(content) && cmd != "write" && cmd != "create" && cmd != "undo_edit":
			x = mustRefuse()
		case cmd == "create":
			x = mustRefuse() // f.txt exists
		case cmd == "write" && plain && utf8.RuneCountInString(n) <= 400_000:
			x = mustBecome(n)
			if _, _, omits := match.Omission(s, n); omits {
				x = mustRefuse() // a placeholder where the file's code was
			}
		case cmd == "str_replace" && plain:
			// Exactly once: replaced, unless new_str has a placeholder
			// for what it deletes; more than once: refused. Not at all:
			// the ladder's tolerances may still find it (their bytes are
			// pinned by the texteditor and match tables).
			switch offs := occurrences(s, o); {
			case len(offs) == 1:
				x = mustBecome(s[:offs[0]] + n + s[offs[0]+len(o):])
				if _, _, omits := match.Omission(o, n); omits {
					x = mustRefuse()
				}
			case len(offs) > 1:
				x = mustRefuse()
			}
		case cmd == "insert" && plain:
			x = insertExpectation(s, line, n)
		}
		x.check(t, c, content)
	})
}

// insertExpectation is text_editor insert's result on an LF file s: n's
// lines (one final "\n" optional) after line `line` (a negative line
// counted from the end); after the last line of
// a file without a final newline, the line ending goes first and the file
// still lacks one, unless the last inserted line is empty.
func insertExpectation(s string, line int64, n string) expectation {
	if n == "" || line < -int64(lineCount(s))-1 || line > int64(lineCount(s)) {
		return mustRefuse()
	}
	if line < 0 { // counted from the end: -1 is after the last line
		line += int64(lineCount(s)) + 1
	}
	body := strings.TrimSuffix(n, "\n")
	if int(line) == lineCount(s) && s != "" && !strings.HasSuffix(s, "\n") {
		if body == "" || strings.HasSuffix(body, "\n") {
			return mustBecome(s + "\n" + body + "\n")
		}
		return mustBecome(s + "\n" + body)
	}
	ls := splitLines(s)
	return mustBecome(joinLines(ls[:line]) + body + "\n" + joinLines(ls[line:]))
}
