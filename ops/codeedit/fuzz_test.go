package codeedit

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

func hasLoneLF(b []byte) bool {
	return bytes.Count(b, []byte("\n")) != bytes.Count(b, []byte("\r\n"))
}

// FuzzMatch: no input panics; errors wrap the package's sentinels; a
// successful Match's edits apply and leave the bytes before the first and
// after the last edit alone; search == replace changes nothing; a pure CRLF
// file stays pure CRLF when the agent writes "\n". Plan and Append too.
func FuzzMatch(f *testing.F) {
	f.Add([]byte("import os\nimport sys\n"), "import os\nimport sys\n", "import os\nimport json\n")
	f.Add([]byte("one\r\ntwo\r\nthree"), "two\nthree", "2\n3\n")
	f.Add([]byte(text.BOM+"\tif x {\n\t\ty()\n\t}\n"), "    if x {\n        y()\n    }", "    if x {\n        z()\n    }")
	f.Add([]byte("a\n  b\n    c\n"), "b\n  c\n", "b\n...\n")
	f.Add([]byte("def f():\n    a\n    b\n    c\n"), "\ndef f():\n...\n    c\n", "\ndef g():\n...\n    d\n")
	f.Add([]byte("x\n"), "```\nx\n```", "src/a\n```go\ny\n```\n")
	f.Add([]byte(""), "", "new\n")
	f.Add([]byte("a\r\r\nb"), "a\r\r\n", "")
	f.Fuzz(func(t *testing.T, content []byte, search, replace string) {
		pureCRLF := bytes.Contains(content, []byte("\r\n")) && !hasLoneLF(content)
		agentLF := !strings.Contains(search, "\r") && !strings.Contains(replace, "\r")

		r, err := Match(content, search, replace)
		if err != nil {
			if !errors.Is(err, ErrNoMatch) && !errors.Is(err, ErrEmptySearch) && !errors.Is(err, ErrElision) && !errors.Is(err, ErrAmbiguous) {
				t.Fatalf("unwrapped error: %v", err)
			}
			_ = err.Error()
		} else {
			got, aerr := text.ApplyEdits(content, r.Edits)
			if aerr != nil {
				t.Fatalf("edits do not apply: %v (%+v)", aerr, r.Edits)
			}
			if r.Line < 1 || r.EndLine < r.Line || r.EndLine > text.LineCount(content) {
				t.Fatalf("lines %d-%d of %d", r.Line, r.EndLine, text.LineCount(content))
			}
			if len(r.Edits) > 0 && r.Edits[0].Start < text.BOMLen(content) {
				t.Fatalf("edit inside the BOM: %+v", r.Edits)
			}
			if pureCRLF && agentLF && hasLoneLF(got) {
				t.Fatalf("lone LF put into a CRLF file: %q -> %q", content, got)
			}
			if pureCRLF && !text.EndsWithNewline(content) && text.EndsWithNewline(got) && r.Stage != StageElision {
				t.Fatalf("final newline added: %q -> %q", content, got)
			}
		}

		if r, err := Match(content, search, search); err == nil {
			got, aerr := text.ApplyEdits(content, r.Edits)
			if aerr != nil || !bytes.Equal(got, content) || len(r.Edits) != 0 {
				t.Fatalf("search == replace changed the file: %q -> %q (%v)", content, got, aerr)
			}
		}

		for _, exists := range []bool{true, false} {
			p, err := Plan(Edit{FilePath: "src/a.py", Search: search, Replace: replace}, content, exists)
			if err != nil {
				continue
			}
			c := content
			if !exists {
				c = nil
			}
			got, aerr := text.ApplyEdits(c, p.Edits)
			if aerr != nil {
				t.Fatalf("Plan's edits do not apply: %v", aerr)
			}
			if p.Stage == StageAppend && !bytes.HasPrefix(got, c) {
				t.Fatalf("append changed existing bytes: %q -> %q", c, got)
			}
		}
	})
}
