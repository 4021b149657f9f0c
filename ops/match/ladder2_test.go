package match

import "testing"

func TestLadderUnicode(t *testing.T) {
	runLadder(t, []ladderCase{
		{
			name:        "Codex seek_sequence rung 4: curly quotes and an em dash in the file, ASCII in the patch; unchanged lines keep the file's",
			content:     "x = 1\nprint(\u201chi\u201d)  # a \u2014 b\ny = 2\n",
			needle:      "x = 1\nprint(\"hi\")  # a - b\ny = 2\n",
			repl:        "x = 1\nprint(\"hi\")  # a - b\ny = 3\n",
			wantStage:   Unicode,
			wantForgave: "curly quotes on line 2, typographic dashes on line 2",
			wantFile:    "x = 1\nprint(\u201chi\u201d)  # a \u2014 b\ny = 3\n",
		},
		{
			name:        "apply_patch NFC/NFD-equivalent text (macOS file names pasted as NFD)",
			content:     "caf\u0065\u0301 = 1\nb = 2\n",
			needle:      "caf\u00e9 = 1\nb = 2\n",
			repl:        "caf\u00e9 = 1\nb = 3\n",
			wantStage:   Unicode,
			wantForgave: "NFD text read as NFC on line 1",
			wantFile:    "caf\u0065\u0301 = 1\nb = 3\n",
		},
		{
			name:        "a non-breaking space in the file read as a space",
			content:     "a\u00a0= 1\nb = 2\n",
			needle:      "a = 1\nb = 2",
			repl:        "a = 5\nb = 2",
			wantStage:   Unicode,
			wantForgave: "Unicode spaces on line 1",
			wantFile:    "a = 5\nb = 2\n",
		},
	})
}

func TestLadderInnerSpace(t *testing.T) {
	runLadder(t, []ladderCase{
		{
			name:        "Continue's whitespace-insensitive match: aligned columns in the file, single spaces in the needle",
			content:     "a    = 1\nbb   = 2\nccc  = 3\n",
			needle:      "a = 1\nbb = 2\n",
			repl:        "a = 1\nbb = 20\n",
			wantStage:   InnerSpace,
			wantForgave: "runs of spaces inside 2 lines",
			wantFile:    "a    = 1\nbb = 20\nccc  = 3\n",
		},
		{
			name:        "tabs inside a line read as spaces, with indentation off too (cumulative)",
			content:     "\tcase 1:\treturn a\n\tcase 2:\treturn b\n",
			needle:      "case 1: return a\ncase 2: return b\n",
			repl:        "case 1: return a\ncase 2: return c\n",
			wantStage:   InnerSpace,
			wantForgave: "indentation off by 1 tab on 2 lines, runs of spaces inside 2 lines",
			wantFile:    "\tcase 1:\treturn a\n\tcase 2: return c\n",
		},
	})
}

func TestForgiveOverEscapedNewlines_GeminiCLI_editCorrector(t *testing.T) {
	runLadder(t, []ladderCase{
		{
			name:        "Gemini CLI unescapeStringForGeminiBug: \\n and \\\" sent escaped, the replacement too",
			content:     "func f() {\n\tfmt.Println(\"hi\")\n}\n",
			needle:      `fmt.Println(\"hi\")\n}`,
			repl:        `fmt.Println(\"bye\")\n}`,
			wantStage:   Escapes,
			wantForgave: "over-escaped text read unescaped (`\\\"` as a double quote, `\\n` as a newline)",
			wantFile:    "func f() {\n\tfmt.Println(\"bye\")\n}\n",
		},
		{
			name:        "Gemini CLI editCorrector: escaped tabs and a doubled backslash",
			content:     "a\tb\\c\n",
			needle:      `a\tb\\\\c`,
			repl:        `a\tb\\\\d`,
			wantStage:   Escapes,
			wantForgave: "over-escaped text read unescaped (`\\t` as a tab, `\\\\` as a backslash)",
			wantFile:    "a\tb\\d\n",
		},
		{
			name:        "escaped needle that then needs indentation too",
			content:     "if x:\n    y = 1\n    z = 2\n",
			needle:      `y = 1\nz = 2\n`,
			repl:        `y = 1\nz = 3\nw = 4\n`,
			wantStage:   Escapes,
			wantForgave: "over-escaped text read unescaped (`\\n` as a newline), indentation off by 4 spaces on 2 lines",
			wantFile:    "if x:\n    y = 1\n    z = 3\n    w = 4\n",
		},
		{
			name:    "Escapes off: not found",
			content: "a\nb\n", needle: `a\nb`, stages: Of(TrailingSpace, Indentation, Similar),
			wantErr: ErrNotFound,
		},
	})
}

func TestLadderSimilar(t *testing.T) {
	block := "def total(items):\n    s = 0\n    for it in items:\n        s += it.price\n    return s\n"
	runLadder(t, []ladderCase{
		{
			name:        "aider replace_closest_edit_distance / Cline block anchor fallback: a typo in a middle line",
			content:     "import x\n\n" + block + "\nprint(1)\n",
			needle:      "def total(items):\n    s = 0\n    for it in itmes:\n        s += it.price\n    return s\n",
			repl:        "def total(items):\n    s = 0\n    for it in items:\n        s += it.cost\n    return s\n",
			wantStage:   Similar,
			wantForgave: "similar (96%): line 5 differs",
			wantFile:    "import x\n\ndef total(items):\n    s = 0\n    for it in items:\n        s += it.cost\n    return s\n\nprint(1)\n",
		},
		{
			name: "Roo Code fuzzy match: one line of the file the agent skipped is kept when its neighbours are",
			content: "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    g = 6\n    h = 7\n    i = 8\n    j = 9\n" +
				"    k = 10\n    return a\n",
			needle: "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    g = 6\n    h = 7\n    i = 8\n    j = 9\n" +
				"    k = 10\n    return a\n",
			repl: "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    g = 6\n    h = 7\n    i = 8\n    j = 9\n" +
				"    k = 11\n    return a\n",
			wantStage:   Similar,
			wantForgave: "similar (92%): one line of the file not in the text (line 6)",
			wantFile: "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    g = 6\n    h = 7\n    i = 8\n    j = 9\n" +
				"    k = 11\n    return a\n",
		},
		{
			name:    "below the threshold: the middle rewritten, anchors equal, nothing matches",
			content: block,
			needle:  "def total(items):\n    s = sum(items)\n    for it in items:\n        log(it)\n    return s\n",
			wantErr: ErrNotFound,
		},
		{
			name:    "never across unrelated blocks: anchors in two different functions",
			content: "def total(items):\n    return 0\n\ndef other():\n    pass\n    return s\n",
			needle:  "def total(items):\n    s = 0\n    return s\n",
			wantErr: ErrNotFound,
		},
		{
			name:      "two similar blocks: both reported, so the caller refuses",
			content:   block + "\n" + block,
			needle:    "def total(items):\n    s = 0\n    for it in itms:\n        s += it.price\n    return s\n",
			repl:      "x\n",
			wantStage: Similar, wantCount: 2, wantLines: []int{1, 7},
			wantForgave: "similar (98%): line 3 differs",
			wantFile:    "x\n\n" + block,
		},
		{
			name:    "Similar needs 3 lines: a two-line needle with a typo does not match",
			content: "a = 1\nb = 2\n",
			needle:  "a = 1\nb = 3\n",
			wantErr: ErrNotFound,
		},
	})
}
