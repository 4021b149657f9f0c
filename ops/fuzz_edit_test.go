package ops_test

// The fuzz target of edit (positions and regular expressions), and what
// README promises of it.

import (
	"regexp"
	"strings"
	"testing"
)

var editCommands = []string{"insert", "delete", "replace", "replaceAll", "search"}

// FuzzEdit: an edit command on f.txt with fuzzed positions (line+column,
// offset, or both) and fuzzed text, pattern and replacement.
func FuzzEdit(f *testing.F) {
	env := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, content []byte, command uint8, a, b, c, d int64, text, text2 string) {
		r := env.get(t)
		r.reset(t, content)
		cmd := editCommands[int(command)%len(editCommands)]
		form := int(command) / len(editCommands) % 3
		start, end := map[string]any{}, map[string]any{}
		switch form {
		case 0: // line and column
			start["line"], start["column"], end["line"], end["column"] = a, b, c, d
		case 1: // offsets
			start["offset"], end["offset"] = a, c
		case 2: // both forms on the start, an offset for the end
			start["line"], start["column"], start["offset"], end["offset"] = a, b, c, d
		}
		args := map[string]any{"file_path": "f.txt"}
		switch cmd {
		case "insert":
			args["content"], args["position"] = text, start
		case "delete":
			args["range"] = map[string]any{"start": start, "end": end}
		case "replace":
			args["range"], args["content"] = map[string]any{"start": start, "end": end}, text
		case "replaceAll":
			args["pattern"], args["replacement"] = text, text2
		case "search":
			args["pattern"] = text
		}
		call := r.run(t, "edit", fuzzJSON(t, map[string]any{"command": cmd, "arguments": args}), "f.txt")

		s, tx := string(content), sent(text)
		ascii := plainLF(content) && isASCII(s) && !strings.Contains(tx, "\r")
		var x expectation
		switch {
		case cmd == "search":
			if call.moved {
				t.Fatal("search recorded a commit")
			}
		case isBinary(content):
			x = mustRefuse()
		case cmd == "replaceAll" && ascii:
			re, err := regexp.Compile(tx)
			if err != nil || tx == "" {
				x = mustRefuse()
			} else {
				x = mustBecome(re.ReplaceAllString(s, sent(text2)))
			}
		case ascii && s != "":
			// ASCII: a character is a byte.
			offset := func(o int64) (int64, bool) { return o, o >= 0 && o <= int64(len(s)) }
			from, okFrom := lineColumnOffset(s, a, b)
			to, okTo := lineColumnOffset(s, c, d)
			switch form {
			case 1:
				from, okFrom = offset(a)
				to, okTo = offset(c)
			case 2: // both forms given for the start: they must agree
				o, ok := offset(c)
				okFrom = okFrom && ok && o == from
				to, okTo = offset(d)
			}
			switch {
			case cmd == "insert" && okFrom:
				x = mustBecome(s[:from] + tx + s[from:])
			case cmd == "insert":
				x = mustRefuse()
			case okFrom && okTo && from <= to && cmd == "delete":
				x = mustBecome(s[:from] + s[to:])
			case okFrom && okTo && from <= to:
				x = mustBecome(s[:from] + tx + s[to:])
			default:
				x = mustRefuse()
			}
		}
		x.check(t, call, content)
	})
}

// lineColumnOffset is the byte offset of line, column in s, an ASCII LF
// file, as README defines positions: columns run from 1 to a line's length
// + 1; the end of the file is line count + 1, column 1 when the file ends
// with a newline, else the end of its last line.
func lineColumnOffset(s string, line, column int64) (int64, bool) {
	ls := splitLines(s)
	if line == int64(len(ls))+1 && column == 1 && strings.HasSuffix(s, "\n") {
		return int64(len(s)), true
	}
	if line < 1 || line > int64(len(ls)) || column < 1 {
		return 0, false
	}
	text := strings.TrimSuffix(ls[line-1], "\n")
	if column > int64(len(text))+1 {
		return 0, false
	}
	return int64(len(joinLines(ls[:line-1]))) + column - 1, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
