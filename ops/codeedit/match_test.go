package codeedit

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

func TestMatchStages(t *testing.T) {
	tests := []struct {
		name                     string
		content, search, replace string
		want, stage              string
		line                     int
	}{
		{
			name:    "exact",
			content: "a\nb\nc\n", search: "b\n", replace: "B\n",
			want: "a\nB\nc\n", stage: StageExact, line: 2,
		},
		{
			name:    "search without final newline",
			content: "a\nb\nc\n", search: "b", replace: "B",
			want: "a\nB\nc\n", stage: StageExact, line: 2,
		},
		{
			name:    "replace empty deletes whole lines",
			content: "a\nb\nc\n", search: "b\n", replace: "",
			want: "a\nc\n", stage: StageExact, line: 2,
		},
		{
			name:    "replace with one empty line",
			content: "a\nb\nc\n", search: "b\n", replace: "\n",
			want: "a\n\nc\n", stage: StageExact, line: 2,
		},
		{
			name:    "trailing whitespace in the file",
			content: "x = 1   \ny = 2\t\nz = 3\n", search: "x = 1\ny = 2\n", replace: "x = 1\ny = 20\n",
			// Line 1 is context (same in search and replace): the file keeps
			// its trailing spaces; only line 2 is rewritten.
			want: "x = 1   \ny = 20\nz = 3\n", stage: StageTrailingWhitespace, line: 1,
		},
		{
			name:    "trailing whitespace in search",
			content: "x = 1\ny = 2\n", search: "y = 2  \n", replace: "y = 3\n",
			want: "x = 1\ny = 3\n", stage: StageTrailingWhitespace, line: 2,
		},
		{
			name:    "uniform indentation missing",
			content: "class A:\n    def f(self):\n        if x:\n            return 1\n        return 2\n",
			search:  "if x:\n    return 1\n",
			replace: "if x:\n    return 10\nelse:\n    pass\n",
			want:    "class A:\n    def f(self):\n        if x:\n            return 10\n        else:\n            pass\n        return 2\n",
			stage:   StageIndentation, line: 3,
		},
		{
			name: "only part of the indentation missing, nested inside the block",
			// The file has 8/12 spaces, search 4/8: an offset of 4.
			content: "class A:\n    def f(self):\n        for i in x:\n            print(i)\n        done()\n",
			search:  "    for i in x:\n        print(i)\n",
			replace: "    for i in x:\n        print(i)\n        log(i)\n",
			want:    "class A:\n    def f(self):\n        for i in x:\n            print(i)\n            log(i)\n        done()\n",
			stage:   StageIndentation, line: 3,
		},
		{
			name:    "search over-indented",
			content: "def f():\n    return 1\n",
			search:  "        def f():\n            return 1\n",
			replace: "        def f():\n            return 2\n",
			want:    "def f():\n    return 2\n",
			stage:   StageIndentation, line: 1,
		},
		{
			name:    "tabs in the file and spaces in the block",
			content: "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n",
			search:  "    if x {\n        return 1\n    }\n",
			replace: "    if x {\n        log(x)\n        return 2\n    }\n",
			want:    "func f() {\n\tif x {\n\t\tlog(x)\n\t\treturn 2\n\t}\n}\n",
			stage:   StageIndentation, line: 2,
		},
		{
			name: "tabs in the file, spaces in a single-level block, nested replacement",
			// Search says nothing about its unit; replace does (4 spaces).
			content: "func f() {\n\tx := 1\n}\n",
			search:  "x := 1\n",
			replace: "x := 1\nif x > 0 {\n    x++\n}\n",
			want:    "func f() {\n\tx := 1\n\tif x > 0 {\n\t\tx++\n\t}\n}\n",
			stage:   StageIndentation, line: 2,
		},
		{
			name:    "tabs in the file with alignment spaces, 2-space block",
			content: "func f() {\n\tcall(a,\n\t     b)\n\tif x {\n\t\ty()\n\t}\n}\n",
			search:  "  if x {\n    y()\n  }\n",
			replace: "  if x {\n    z()\n  }\n",
			want:    "func f() {\n\tcall(a,\n\t     b)\n\tif x {\n\t\tz()\n\t}\n}\n",
			stage:   StageIndentation, line: 4,
		},
		{
			name:    "spaces in the file and tabs in the block",
			content: "def f():\n    if x:\n        return 1\n",
			search:  "\tif x:\n\t\treturn 1\n",
			replace: "\tif x:\n\t\treturn 2\n\telse:\n\t\treturn 3\n",
			want:    "def f():\n    if x:\n        return 2\n    else:\n        return 3\n",
			stage:   StageIndentation, line: 2,
		},
		{
			name:    "blank lines match blank lines at the indentation stage",
			content: "    a()\n\n    b()\n",
			search:  "a()\n   \nb()\n",
			replace: "a()\n\nc()\n",
			want:    "    a()\n\n    c()\n",
			stage:   StageIndentation, line: 1,
		},
		{
			name:    "blank first line",
			content: "x\ny\nz\n", search: "\ny\nz\n", replace: "\ny\nZ\n",
			want: "x\ny\nZ\n", stage: StageBlankFirstLine, line: 2,
		},
		{
			name:    "blank first line, replace without one",
			content: "x\ny\nz\n", search: "\n\ny\n", replace: "Y\n",
			want: "x\nY\nz\n", stage: StageBlankFirstLine, line: 2,
		},
		{
			name:    "blank first line that the file has is matched as it is",
			content: "x\n\ny\n", search: "\ny\n", replace: "\nY\n",
			want: "x\n\nY\n", stage: StageExact, line: 2,
		},
		{
			name:    "blank last line",
			content: "x\ny\n", search: "y\n\n", replace: "Y\n\n",
			want: "x\nY\n", stage: StageBlankLastLine, line: 2,
		},
		{
			name:    "blank first line with indentation missing",
			content: "if a:\n    b()\n    c()\n",
			search:  "\nb()\nc()\n",
			replace: "\nb()\nd()\n",
			want:    "if a:\n    b()\n    d()\n",
			stage:   StageBlankFirstLine, line: 2,
		},
		{
			name:    "literal ... lines match exactly before elision is tried",
			content: "class P(Protocol):\n    def f(self):\n        ...\n",
			search:  "    def f(self):\n        ...\n", replace: "    def f(self) -> int:\n        ...\n",
			want: "class P(Protocol):\n    def f(self) -> int:\n        ...\n", stage: StageExact, line: 2,
		},
		{
			name:    "elision with indentation missing in a part",
			content: "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n",
			search:  "a = 1\n...\nreturn a\n",
			replace: "a = 10\n...\nreturn a + c\n",
			want:    "def f():\n    a = 10\n    b = 2\n    c = 3\n    return a + c\n",
			stage:   StageElision, line: 2,
		},
		{
			name:    "elision with a leading ... line",
			content: "a\nb\nc\n",
			search:  "...\nc\n",
			replace: "...\nC\n",
			want:    "a\nb\nC\n",
			stage:   StageElision, line: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, r := apply(t, tc.content, tc.search, tc.replace)
			check(t, got, r, tc.want, tc.stage, tc.line)
			if r.Message == "" {
				t.Error("empty message")
			}
		})
	}
}

func TestFirstMatchWins(t *testing.T) {
	content := "a\nx = 1\nb\nx = 1\nc\nx = 1\n"
	got, r := apply(t, content, "x = 1\n", "x = 2\n")
	check(t, got, r, "a\nx = 2\nb\nx = 1\nc\nx = 1\n", StageExact, 2)
	if !sameInts(r.OtherLines, []int{4, 6}) {
		t.Errorf("OtherLines %v, want [4 6]", r.OtherLines)
	}
	if !strings.Contains(r.Message, "also matches at lines 4 and 6") || !strings.Contains(r.Message, "first match (line 2) was used") {
		t.Errorf("message: %s", r.Message)
	}
}

func TestBetterStageWinsOverEarlierPlace(t *testing.T) {
	// Line 2 matches only with indentation; line 4 matches exactly: exact wins.
	content := "def f():\n    x = 1\n\nx = 1\n"
	got, r := apply(t, content, "x = 1\n", "x = 2\n")
	check(t, got, r, "def f():\n    x = 1\n\nx = 2\n", StageExact, 4)
	if len(r.OtherLines) != 0 {
		t.Errorf("OtherLines %v: a place at a later stage is no rival", r.OtherLines)
	}
}

func TestOverlappingCandidates(t *testing.T) {
	got, r := apply(t, "a\na\na\n", "a\na\n", "b\nb\n")
	check(t, got, r, "b\nb\na\n", StageExact, 1)
	if !sameInts(r.OtherLines, []int{2}) {
		t.Errorf("OtherLines %v", r.OtherLines)
	}
}

func TestCRLF(t *testing.T) {
	content := "one\r\ntwo\r\nthree\r\n"
	got, r := apply(t, content, "two\n", "2\nzwei\n")
	check(t, got, r, "one\r\n2\r\nzwei\r\nthree\r\n", StageExact, 2)

	// A CRLF search works too, and a CRLF file at the indentation stage.
	got, r = apply(t, "if a:\r\n    b()\r\n", "b()\r\n", "b()\r\nc()\r\n")
	check(t, got, r, "if a:\r\n    b()\r\n    c()\r\n", StageIndentation, 2)
}

func TestBOM(t *testing.T) {
	content := text.BOM + "first\nsecond\n"
	got, r := apply(t, content, "first\n", "FIRST\n")
	check(t, got, r, text.BOM+"FIRST\nsecond\n", StageExact, 1)
	if r.Edits[0].Start != len(text.BOM) {
		t.Errorf("edit starts at %d, inside the BOM", r.Edits[0].Start)
	}
	// A search that starts with a BOM still matches line 1.
	got, _ = apply(t, content, text.BOM+"first\n", "1st\n")
	if got != text.BOM+"1st\nsecond\n" {
		t.Errorf("got %q", got)
	}
}

func TestEndOfFileWithoutFinalNewline(t *testing.T) {
	tests := []struct{ name, content, search, replace, want string }{
		{"replace last line", "a\nb", "b\n", "c\n", "a\nc"},
		{"replace last line, more lines", "a\nb", "b", "c\nd", "a\nc\nd"},
		{"insert after last line", "a\nb", "b", "b\nc\n", "a\nb\nc"},
		{"delete last line", "a\nb", "b", "", "a"},
		{"delete last line, CRLF", "a\r\nb", "b", "", "a"},
		{"delete whole file", "a\nb", "a\nb", "", ""},
		{"keep final newline", "a\nb\n", "b", "c", "a\nc\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := apply(t, tc.content, tc.search, tc.replace)
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSameTextNoEdits(t *testing.T) {
	r, err := Match([]byte("a\n  b\nc\n"), "b\n", "b\n")
	if err != nil || len(r.Edits) != 0 || !strings.Contains(r.Message, "nothing changed") {
		t.Fatalf("%+v, %v", r, err)
	}
}

func TestReplaceWithMoreDotsIsNoted(t *testing.T) {
	_, r := apply(t, "a\nb\n", "a\n", "a\n...\n")
	if !strings.Contains(r.Message, "`...`") {
		t.Errorf("message: %s", r.Message)
	}
}

func TestElisionErrors(t *testing.T) {
	content := "def f():\n    x = 1\n    y = 2\n    return x\n\ndef g():\n    x = 1\n    return x\n"
	t.Run("part occurring twice", func(t *testing.T) {
		_, err := Match([]byte(content), "def f():\n...\n    return x\n", "def f():\n...\n    return y\n")
		if !errors.Is(err, ErrAmbiguous) {
			t.Fatalf("got %v", err)
		}
		msg := err.Error()
		for _, want := range []string{"the part of search after the `...` line", `"return x"`, "occurs 2 times", "lines 4 and 8"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message lacks %q: %s", want, msg)
			}
		}
	})
	t.Run("unequal counts", func(t *testing.T) {
		_, err := Match([]byte(content), "def f():\n...\n    y = 2\n", "def f():\n    y = 3\n")
		if !errors.Is(err, ErrElision) || !strings.Contains(err.Error(), "search has 1 `...` line but replace has 0") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("out of order", func(t *testing.T) {
		_, err := Match([]byte(content), "def g():\n...\ndef f():\n", "def g():\n...\ndef f():\n")
		if !errors.Is(err, ErrElision) || !strings.Contains(err.Error(), "in order") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("part not found", func(t *testing.T) {
		_, err := Match([]byte(content), "def f():\n...\n    return z\n", "def f():\n...\n    return y\n")
		var nm *NoMatch
		if !errors.As(err, &nm) || nm.Part != "the part of search after the `...` line" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("empty part with replacement", func(t *testing.T) {
		_, err := Match([]byte(content), "...\n    y = 2\n", "new()\n...\n    y = 2\n")
		if !errors.Is(err, ErrElision) || !strings.Contains(err.Error(), "is empty") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestEmptySearch(t *testing.T) {
	_, err := Match([]byte("a\n"), " \n\n", "x")
	if !errors.Is(err, ErrEmptySearch) {
		t.Fatalf("got %v", err)
	}
}

func TestNoMatchDidYouMean(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		switch i {
		case 50:
			b.WriteString("def total(items):\n")
		case 51:
			b.WriteString("    s = 0\n")
		case 52:
			b.WriteString("    for it in items:\n")
		case 53:
			b.WriteString("        s += it.price\n")
		case 54:
			b.WriteString("    return s\n")
		default:
			b.WriteString("# filler line\n")
		}
	}
	search := "def total(items):\n    s = 0\n    for it in items:\n        s += it.cost\n    return s\n"
	_, err := Match([]byte(b.String()), search, "def total(items):\n    return sum(i.price for i in items)\n")
	var nm *NoMatch
	if !errors.As(err, &nm) || !errors.Is(err, ErrNoMatch) {
		t.Fatalf("got %v", err)
	}
	if len(nm.Closest) != 5 || nm.Closest[0].Line != 50 || nm.Closest[4].Line != 54 || nm.Closest[3].Text != "        s += it.price" {
		t.Errorf("closest %+v", nm.Closest)
	}
	msg := err.Error()
	for _, want := range []string{
		"search text not found in the file: the SEARCH block (5 lines) matches no lines of the file",
		"Did you mean lines 50-54? The file has:\n    50\tdef total(items):\n",
		`The first difference is at line 53: the file has "        s += it.price" where search line 4 has "        s += it.cost".`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if nm.AlreadyAt != 0 {
		t.Errorf("AlreadyAt %d", nm.AlreadyAt)
	}
}

func TestNoMatchWhitespaceOnly(t *testing.T) {
	// c() shallower than the if in search, inside it in the file: no
	// stage forgives indentation that contradicts the nesting (ops/match
	// keepNesting); the report says it is whitespace only.
	content := "if a:\n  if b:\n    c()\n"
	_, err := Match([]byte(content), "  if b:\nc()\n", "  if b:\nd()\n")
	var nm *NoMatch
	if !errors.As(err, &nm) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(nm.Difference, "in whitespace only") {
		t.Errorf("difference: %s", nm.Difference)
	}
}

func TestNoMatchByTokens(t *testing.T) {
	content := "alpha = 1\nbeta = compute(alpha)\ngamma = 3\n"
	_, err := Match([]byte(content), "beta = compute( alpha )\n", "beta = 2\n")
	var nm *NoMatch
	if !errors.As(err, &nm) || len(nm.Closest) != 1 || nm.Closest[0].Line != 2 {
		t.Fatalf("got %v / %+v", err, nm)
	}
}

func TestNoMatchNothingAlike(t *testing.T) {
	_, err := Match([]byte("a\nb\n"), "zzz\n", "y\n")
	var nm *NoMatch
	if !errors.As(err, &nm) || len(nm.Closest) != 0 || !strings.Contains(err.Error(), "check that file_path names the right file") {
		t.Fatalf("got %v", err)
	}
}

func TestNoMatchReplaceAlreadyPresent(t *testing.T) {
	content := "import os\nimport json\n\nprint(os.getcwd())\n"
	_, err := Match([]byte(content), "import os\nimport sys\n", "import os\nimport json\n")
	var nm *NoMatch
	if !errors.As(err, &nm) || nm.AlreadyAt != 1 {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "the REPLACE text is already in the file at line 1 — was this edit already applied?") &&
		!strings.Contains(err.Error(), "The REPLACE text is already in the file at line 1 — was this edit already applied?") {
		t.Errorf("message: %s", err)
	}
	// A lone short line proves nothing and is not reported.
	_, err = Match([]byte("}\n"), "x\n", "}\n")
	if !errors.As(err, &nm) || nm.AlreadyAt != 0 {
		t.Errorf("got %v", err)
	}
}

func TestNoMatchMarkerHint(t *testing.T) {
	_, err := Match([]byte("a\nb\n"), "a\n=======\nb\n", "c\n")
	if err == nil || !strings.Contains(err.Error(), "put only the lines between <<<<<<< SEARCH and ======= in search") {
		t.Fatalf("got %v", err)
	}
}

func TestNoMatchLongBlockIsBounded(t *testing.T) {
	var content, search strings.Builder
	for i := range 100 {
		line := "line " + strings.Repeat("x", 300) + string(rune('a'+i%26)) + "\n"
		content.WriteString(line)
		if i == 70 {
			line = "changed\n"
		}
		search.WriteString(line)
	}
	_, err := Match([]byte(content.String()), search.String(), "y\n")
	var nm *NoMatch
	if !errors.As(err, &nm) {
		t.Fatalf("got %v", err)
	}
	if len(nm.Closest) != maxShownLines {
		t.Errorf("%d lines shown", len(nm.Closest))
	}
	if first := nm.Closest[0].Line; first > 71 || first+maxShownLines <= 71 {
		t.Errorf("the difference at line 71 is not in view: from line %d", first)
	}
	if l := len(nm.Closest[0].Text); l > maxShownChars+len("…") {
		t.Errorf("line not clipped: %d bytes", l)
	}
}
