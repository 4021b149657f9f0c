package match

import (
	"errors"
	"testing"
)

// ladderCase is one table case: Find needle in content with stages, then
// replace the place the case picks (0 unless pick) with the adapted
// replacement; every field of the result is asserted exactly.
type ladderCase struct {
	name        string
	content     string
	needle      string
	repl        string
	stages      Stages
	wantErr     error
	wantStage   Stage
	wantCount   int // 0 means 1
	wantLines   []int
	wantForgave string
	wantFile    string
}

func runLadder(t *testing.T, cases []ladderCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stages := tc.stages
			if stages == 0 {
				stages = All
			}
			m, err := Find([]byte(tc.content), tc.needle, stages)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Find: err %v, match %+v; want %v", err, m, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if m.Stage != tc.wantStage {
				t.Errorf("stage %v, want %v", m.Stage, tc.wantStage)
			}
			want := max(tc.wantCount, 1)
			if m.Count != want || len(m.Places) != want {
				t.Fatalf("count %d (%d places), want %d: %+v", m.Count, len(m.Places), want, m.Places)
			}
			if tc.wantLines != nil {
				for i, p := range m.Places {
					if p.Line != tc.wantLines[i] {
						t.Errorf("place %d at line %d, want %d", i, p.Line, tc.wantLines[i])
					}
				}
			}
			p := m.Places[0]
			if p.Forgave != tc.wantForgave {
				t.Errorf("forgave %q, want %q", p.Forgave, tc.wantForgave)
			}
			got := tc.content[:p.Start] + m.Replacement(0, tc.repl) + tc.content[p.End:]
			if got != tc.wantFile {
				t.Errorf("file after replacing:\n got %q\nwant %q", got, tc.wantFile)
			}
		})
	}
}

func TestLadderTrailingSpace(t *testing.T) {
	runLadder(t, []ladderCase{
		{
			name:      "exact stays exact (CRLF file, LF needle)",
			content:   "a\r\nb\r\nc\r\n",
			needle:    "b\n",
			repl:      "B\nB2\n",
			wantStage: Exact,
			wantFile:  "a\r\nB\r\nB2\r\nc\r\n",
		},
		{
			name:        "Codex seek_sequence rung 2: trailing whitespace in the file dropped by the agent",
			content:     "def f():  \n    return 1\t\nx = 2\n",
			needle:      "def f():\n    return 1\n",
			repl:        "def f():\n    return 2\n",
			wantStage:   TrailingSpace,
			wantForgave: "trailing whitespace on 2 lines",
			// the unchanged line keeps the file's trailing spaces
			wantFile: "def f():  \n    return 2\nx = 2\n",
		},
		{
			name:        "aider#2241-style trailing space the agent added, needle without final newline",
			content:     "one\ntwo\nthree",
			needle:      "two \nthree ",
			repl:        "2\n3",
			wantStage:   TrailingSpace,
			wantForgave: "trailing whitespace on 2 lines",
			wantFile:    "one\n2\n3",
		},
		{
			name:        "a CRLF old_string against an LF file (Claude Code Edit)",
			content:     "a\nb\nc\n",
			needle:      "a\r\nb\r\n",
			repl:        "x\r\ny\r\n",
			wantStage:   TrailingSpace,
			wantForgave: "CRLF line endings read as the file's LF",
			wantFile:    "x\ny\nc\n",
		},
		{
			name:        "needle with final newline at a last line without one: the file's missing newline kept",
			content:     "a\nb  ",
			needle:      "b\n",
			repl:        "c\n",
			wantStage:   TrailingSpace,
			wantForgave: "a final line break the file lacks, trailing whitespace on 1 line",
			wantFile:    "a\nc",
		},
		{
			name:        "OpenHands: a final line break the file lacks",
			content:     "a\nb",
			needle:      "a\nb\n",
			repl:        "c\nd\n",
			wantStage:   TrailingSpace,
			wantForgave: "a final line break the file lacks",
			wantFile:    "c\nd",
		},
		{
			name:        "a CRLF file with a lone LF, the needle with the opposite ones",
			content:     "a\r\nb\nc\r\n",
			needle:      "a\nb\r\nc",
			repl:        "new",
			wantStage:   TrailingSpace,
			wantForgave: "mixed line endings: CRLF read as the file's LF on line 2",
			wantFile:    "new\r\n",
		},
		{
			name:        "an LF file with one CRLF line, the needle all LF",
			content:     "a\nb\r\nc\nd\n",
			needle:      "a\nb\nc\n",
			repl:        "a\nb\nC\n",
			wantStage:   TrailingSpace,
			wantForgave: "mixed line endings: LF read as the file's CRLF on line 2",
			wantFile:    "a\nb\r\nC\nd\n",
		},
		{
			name:      "two places at the stage are both reported",
			content:   "x \ny\nx\t\ny\n",
			needle:    "x\ny\n",
			repl:      "z\n",
			wantStage: TrailingSpace, wantCount: 2, wantLines: []int{1, 3},
			wantForgave: "trailing whitespace on 1 line",
			wantFile:    "z\nx\t\ny\n",
		},
		{
			name:    "stage not enabled: not found",
			content: "a  \nb\n", needle: "a\nb\n", stages: Of(Indentation),
			wantStage: Indentation, wantForgave: "trailing whitespace on 1 line", // Indentation alone does not trim the end
			wantErr: ErrNotFound,
		},
	})
}

func TestLadderIndentation(t *testing.T) {
	runLadder(t, []ladderCase{
		{
			name:        "OpenHands/aider relative indent: one offset for every line, added lines get it too",
			content:     "class A:\n    def f(self):\n        return 1\n",
			needle:      "def f(self):\n    return 1\n",
			repl:        "def f(self):\n    if x:\n        return 2\n    return 1\n",
			wantStage:   Indentation,
			wantForgave: "indentation off by 4 spaces on 2 lines",
			wantFile:    "class A:\n    def f(self):\n        if x:\n            return 2\n        return 1\n",
		},
		{
			name:        "Codex seek_sequence rung 3: a missing leading space on context lines",
			content:     "x\n a\n b\n c\n",
			needle:      "a\nb\nc\n",
			repl:        "a\nB\nc\n",
			wantStage:   Indentation,
			wantForgave: "a missing leading space on 3 lines",
			wantFile:    "x\n a\n B\n c\n",
		},
		{
			name:        "an extra leading space the agent added",
			content:     "f()\ng()\n",
			needle:      " f()\n g()\n",
			repl:        " f()\n h()\n",
			wantStage:   Indentation,
			wantForgave: "an extra leading space on 2 lines",
			wantFile:    "f()\nh()\n",
		},
		{
			name:        "VS Code Copilot #267547: 6-space YAML list matched at 4 spaces, added items get 6",
			content:     "jobs:\n  build:\n    steps:\n      - uses: a\n      - run: b\n",
			needle:      "    - uses: a\n    - run: b\n",
			repl:        "    - uses: a\n    - run: b\n    - run: c\n",
			wantStage:   Indentation,
			wantForgave: "indentation off by 2 spaces on 2 lines",
			wantFile:    "jobs:\n  build:\n    steps:\n      - uses: a\n      - run: b\n      - run: c\n",
		},
		{
			name:        "aider columnIndent: a 2-space block in a 4-space file",
			content:     "if a:\n    if b:\n        c()\n",
			needle:      "if a:\n  if b:\n    c()\n",
			repl:        "if a:\n  if b:\n    c()\n    d()\n  e()\n",
			wantStage:   Indentation,
			wantForgave: "a 2-space indent read as the file's 4-space indent",
			wantFile:    "if a:\n    if b:\n        c()\n        d()\n    e()\n",
		},
		{
			name:        "aider columnIndent: a 4-space block in a tab-indented Go file, added lines get tabs",
			content:     "func f() {\n\tif a {\n\t\tb()\n\t}\n}\n",
			needle:      "    if a {\n        b()\n    }\n",
			repl:        "    if a {\n        b()\n        c()\n    }\n",
			wantStage:   Indentation,
			wantForgave: "a 4-space indent read as the file's tabs",
			wantFile:    "func f() {\n\tif a {\n\t\tb()\n\t\tc()\n\t}\n}\n",
		},
		{
			name:        "a 4-space block quoted from two tabs deep: a line one level deeper gets three tabs, not two and spaces",
			content:     "func f() {\n\tfor {\n\t\tif a {\n\t\t\tb()\n\t\t}\n\t}\n}\n",
			needle:      "if a {\n    b()\n}\n",
			repl:        "if a {\n    b()\n    if c {\n        w()\n    }\n}\n",
			wantStage:   Indentation,
			wantForgave: "a 4-space indent read as the file's tabs, 2 tabs deeper on 3 lines",
			wantFile:    "func f() {\n\tfor {\n\t\tif a {\n\t\t\tb()\n\t\t\tif c {\n\t\t\t\tw()\n\t\t\t}\n\t\t}\n\t}\n}\n",
		},
		{
			name:        "one depth quoted in spaces from a tab file: 4 spaces taken as one tab",
			content:     "x {\n\t\tkeep()\n}\n",
			needle:      "    keep()\n",
			repl:        "    keep()\n        deeper()\n",
			wantStage:   Indentation,
			wantForgave: "a 4-space indent read as the file's tabs, 1 tab deeper on 1 line",
			wantFile:    "x {\n\t\tkeep()\n\t\t\tdeeper()\n}\n",
		},
		{
			name:        "tabs quoted from a 2-space file four spaces deep",
			content:     "a:\n  b:\n    c:\n      d: 1\n",
			needle:      "c:\n\td: 1\n",
			repl:        "c:\n\td: 1\n\te:\n\t\tf: 2\n",
			wantStage:   Indentation,
			wantForgave: "tabs read as the file's 2-space indent, 4 spaces deeper on 2 lines",
			wantFile:    "a:\n  b:\n    c:\n      d: 1\n      e:\n        f: 2\n",
		},
		{
			name:    "a needle whose nesting contradicts the file's is not the file's text (Python: d() inside the if in the needle, after it in the file)",
			content: "def f():\n  if b:\n    c()\n  d()\n",
			needle:  "if b:\n  c()\n    d()\n",
			repl:    "if b:\n  c()\n    e()\n",
			stages:  Of(TrailingSpace, Unicode, Indentation, InnerSpace),
			wantErr: ErrNotFound,
		},
		{
			name:    "a line the needle indents deeper, the file not",
			content: "x = [\n  1,\n  2,\n]\n",
			needle:  "  1,\n    2,\n",
			repl:    "  1,\n    3,\n",
			stages:  Of(TrailingSpace, Unicode, Indentation, InnerSpace),
			wantErr: ErrNotFound,
		},
		{
			name:        "Codex surrounding whitespace: a needle sent without indentation says nothing of nesting, and matches",
			content:     "def f(x):\n    if x:\n        return 1\n",
			needle:      "if x:\nreturn 1\n",
			repl:        "if x:\n    return 2\n",
			wantStage:   Indentation,
			wantForgave: "indentation off by different amounts on 2 lines (relative indentation kept)",
			wantFile:    "def f(x):\n    if x:\n        return 2\n",
		},
		{
			name:        "tabs in the needle, 2 spaces in the file",
			content:     "a:\n  b:\n    c: 1\n",
			needle:      "\tb:\n\t\tc: 1\n",
			repl:        "\tb:\n\t\tc: 2\n\t\td: 3\n",
			wantStage:   Indentation,
			wantForgave: "tabs read as the file's 2-space indent",
			wantFile:    "a:\n  b:\n    c: 2\n    d: 3\n",
		},
		{
			name:        "aider: each line's indentation off by a different amount, relative indentation kept",
			content:     "  a\n      b\n    c\n",
			needle:      "a\n  b\n c\n",
			repl:        "a\n  b\n    bb\n c\n",
			wantStage:   Indentation,
			wantForgave: "indentation off by different amounts on 3 lines (relative indentation kept)",
			wantFile:    "  a\n      b\n        bb\n    c\n",
		},
		{
			name:        "cumulative: trailing space and indentation on one line match at Indentation",
			content:     "\tfoo()  \n\tbar()\n",
			needle:      "foo()\nbar()\n",
			repl:        "foo()\nbaz()\n",
			wantStage:   Indentation,
			wantForgave: "trailing whitespace on 1 line, indentation off by 1 tab on 2 lines",
			wantFile:    "\tfoo()  \n\tbaz()\n",
		},
		{
			name:        "the agent re-indents an unchanged line on purpose: its indentation, the file's text",
			content:     "    a()  \n    b()\n",
			needle:      "  a()\n  b()\n",
			repl:        "  if c:\n    a()\n  b()\n",
			wantStage:   Indentation,
			wantForgave: "trailing whitespace on 1 line, indentation off by 2 spaces on 2 lines",
			wantFile:    "    if c:\n      a()  \n    b()\n",
		},
		{
			name:      "VS Code #318234: an exact match is never re-indented, a deliberate one-space change stays one space",
			content:   "```text\n  example-command\n```\n",
			needle:    "  example-command\n",
			repl:      "   example-command\n",
			wantStage: Exact,
			wantFile:  "```text\n   example-command\n```\n",
		},
		{
			name:        "VS Code #318234 at Indentation: the agent's extra space is kept relative to the file's indent",
			content:     "    example-command\n    next\n",
			needle:      "  example-command\n  next\n",
			repl:        "   example-command\n  next\n",
			wantStage:   Indentation,
			wantForgave: "indentation off by 2 spaces on 2 lines",
			wantFile:    "     example-command\n    next\n",
		},
		{
			name:        "CRLF file: adapted replacement uses CRLF",
			content:     "  a\r\n  b\r\n",
			needle:      "a\nb\n",
			repl:        "a\nc\n",
			wantStage:   Indentation,
			wantForgave: "indentation off by 2 spaces on 2 lines",
			wantFile:    "  a\r\n  c\r\n",
		},
	})
}
