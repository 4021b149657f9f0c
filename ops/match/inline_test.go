package match

import "testing"

func TestLadderInline(t *testing.T) {
	runLadder(t, []ladderCase{
		{
			name:        "Anthropic/OpenHands str_replace: part of a line with straight quotes, the file's are curly",
			content:     "msg := \u201chello\u201d + name\n",
			needle:      `"hello"`,
			repl:        `"hi"`,
			wantStage:   Unicode,
			wantForgave: "curly quotes on line 1",
			wantFile:    "msg := \"hi\" + name\n",
		},
		{
			name:        "part of a line, unchanged replacement keeps the file's bytes",
			content:     "a\nx \u2014 y\n",
			needle:      "x - y",
			repl:        "x - y",
			wantStage:   Unicode,
			wantForgave: "typographic dashes on line 2",
			wantFile:    "a\nx \u2014 y\n",
		},
		{
			name:        "NFD inside a line",
			content:     "name = \"Jose\u0301\" # x\n",
			needle:      "\"Jos\u00e9\"",
			repl:        "\"Ana\"",
			wantStage:   Unicode,
			wantForgave: "NFD text read as NFC on line 1",
			wantFile:    "name = \"Ana\" # x\n",
		},
		{
			name:        "Continue/Zed: runs of spaces inside part of a line",
			content:     "x  :=   f(a,\tb) // c\n",
			needle:      "x := f(a, b)",
			repl:        "x := g(a, b)",
			wantStage:   InnerSpace,
			wantForgave: "runs of spaces inside 1 line",
			wantFile:    "x := g(a, b) // c\n",
		},
		{
			name:      "two in-line places are both reported",
			content:   "\u2018a\u2019 \u2018a\u2019\n",
			needle:    "'a'",
			repl:      "b",
			wantStage: Unicode, wantCount: 2, wantLines: []int{1, 1},
			wantForgave: "curly quotes on line 1",
			wantFile:    "b \u2018a\u2019\n",
		},
		{
			name:        "Gemini CLI editCorrector: an over-escaped quote inside a line",
			content:     "say(\"it's\")\n",
			needle:      `say(\"it\'s\")`,
			repl:        `say(\"it is\")`,
			wantStage:   Escapes,
			wantForgave: "over-escaped text read unescaped (`\\\"` as a double quote, `\\'` as a quote)",
			wantFile:    "say(\"it is\")\n",
		},
	})
}
