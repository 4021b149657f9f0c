package match

import (
	"errors"
	"testing"
)

// TestOmission pins which replacement lines are omission placeholders and
// when they are refused. Cases are ported from the peers that refuse or warn
// about them: Cline and Roo Code's detectCodeOmission (detect-omission.ts
// and its tests), Gemini CLI's omission-placeholder detector, Aider's "lazy"
// prompts, Continue's "// ... existing code ..." convention and OpenHands'.
func TestOmission(t *testing.T) {
	const method = "func (s *S) Run() error {\n\tif err := s.open(); err != nil {\n\t\treturn err\n\t}\n\treturn s.loop()\n}\n"
	tests := []struct {
		name                string
		replaced, replacing string
		wantLine            int
		wantText            string
	}{
		// Placeholders that would delete what they stand for.
		{name: "review: // ... same as before ...", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// ... same as before ...\n\td()\n}\n", wantLine: 2, wantText: "\t// ... same as before ..."},
		{name: "review: // keep the existing implementation", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// keep the existing implementation\n\td()\n}\n", wantLine: 2, wantText: "\t// keep the existing implementation"},
		{name: "review: // previous code remains here", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// previous code remains here\n\td()\n}\n", wantLine: 2, wantText: "\t// previous code remains here"},
		{name: "review: // unchanged", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// unchanged\n\td()\n}\n", wantLine: 2, wantText: "\t// unchanged"},
		{name: "review: // same as above", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// same as above\n\td()\n}\n", wantLine: 2, wantText: "\t// same as above"},
		{name: "review: // ... etc", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// ... etc\n\td()\n}\n", wantLine: 2, wantText: "\t// ... etc"},
		{name: "review: // [...]", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// [...]\n\td()\n}\n", wantLine: 2, wantText: "\t// [...]"},
		{name: "review: a bare // ...", replaced: "func f() {\n\ta()\n\tb()\n\tc()\n}\n",
			replacing: "func f() {\n\t// ...\n\td()\n}\n", wantLine: 2, wantText: "\t// ..."},
		{name: "Roo detectCodeOmission // ... rest of the method ...", replaced: method,
			replacing: "func (s *S) Run() error {\n\ts.log(\"run\")\n\t// ... rest of the method ...\n}\n", wantLine: 3, wantText: "\t// ... rest of the method ..."},
		{name: "Aider lazy prompt # ... (rest unchanged)", replaced: "def f():\n    a = 1\n    b = 2\n    return a + b\n",
			replacing: "def f():\n    a = 10\n    # ... (rest unchanged)\n", wantLine: 3, wantText: "    # ... (rest unchanged)"},
		{name: "Continue /* ... existing code ... */", replaced: "int main() {\n  init();\n  run();\n}\n",
			replacing: "int main() {\n  /* ... existing code ... */\n  cleanup();\n}\n", wantLine: 2, wantText: "  /* ... existing code ... */"},
		{name: "Cline detect-omission (other methods here)", replaced: "class A:\n    def x(self):\n        return 1\n    def y(self):\n        return 2\n",
			replacing: "class A:\n    def x(self):\n        return 3\n    (other methods here)\n", wantLine: 4, wantText: "    (other methods here)"},
		{name: "Cline detect-omission // rest of code remains the same", replaced: "a();\nb();\nc();\n",
			replacing: "a2();\n// rest of code remains the same\n", wantLine: 2, wantText: "// rest of code remains the same"},
		{name: "Cline detect-omission // Lines 1-50 remain unchanged", replaced: "x\ny\nz\n",
			replacing: "// Lines 1-50 remain unchanged\nz2\n", wantLine: 1, wantText: "// Lines 1-50 remain unchanged"},
		{name: "Cline detect-omission [Previous content from line 1-305 remains exactly the same]", replaced: "x\ny\nz\n",
			replacing: "[Previous content from line 1-305 remains exactly the same]\nconst z = 3;\n", wantLine: 1, wantText: "[Previous content from line 1-305 remains exactly the same]"},
		{name: "Gemini CLI omission placeholder // rest of methods ...", replaced: "m1()\nm2()\n",
			replacing: "m0()\n// rest of methods ...\n", wantLine: 2, wantText: "// rest of methods ..."},
		{name: "HTML <!-- ... existing markup ... -->", replaced: "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n",
			replacing: "<ul>\n  <li>z</li>\n  <!-- ... existing markup ... -->\n</ul>\n", wantLine: 3, wantText: "  <!-- ... existing markup ... -->"},
		{name: "JSX {/* ... rest of the component ... */}", replaced: "<div>\n  <A />\n  <B />\n</div>\n",
			replacing: "<div>\n  <C />\n  {/* ... rest of the component ... */}\n</div>\n", wantLine: 3, wantText: "  {/* ... rest of the component ... */}"},
		{name: "SQL -- existing columns", replaced: "CREATE TABLE t (\n  a int,\n  b int\n);\n",
			replacing: "CREATE TABLE t (\n  -- existing columns\n  c int\n);\n", wantLine: 2, wantText: "  -- existing columns"},
		{name: "Unicode ellipsis // … rest …", replaced: "a\nb\n", replacing: "c\n// … rest …\n", wantLine: 2, wantText: "// … rest …"},
		{name: "CRLF replacement", replaced: "a\r\nb\r\n", replacing: "c\r\n// ... rest of the file ...\r\n", wantLine: 2, wantText: "// ... rest of the file ..."},

		// Not placeholders, or nothing lost.
		{name: "Go variadic parameter and call", replaced: "func f(a []string) { g(a) }\n", replacing: "func f(args ...string) {\n\tg(args...)\n}\n"},
		{name: "Python ... as a body", replaced: "def f(): pass\n", replacing: "def f():\n    ...\n"},
		{name: "JS spread", replaced: "const a = b.concat(c);\n", replacing: "const a = [...b, ...c];\n"},
		{name: "TODO: ... is not an omission", replaced: "x = 1\n", replacing: "# TODO: ...\nx = 2\n"},
		{name: "a comment using the words", replaced: "x = 1\n", replacing: "// the rest of the tests use a helper\nx = 2\n"},
		{name: "long comment with ellipsis and rest", replaced: "x = 1\n", replacing: "// wait for the rest of the replies to arrive, then retry with backoff...\nx = 2\n"},
		{name: "codeedit elision line ...", replaced: "a\nb\nc\n", replacing: "a\n...\nc2\n"},
		{name: "placeholder already in the file", replaced: "a\n// ... existing code ...\nb\n", replacing: "a2\n// ... existing code ...\nb\n"},
		{name: "placeholder added but every line kept", replaced: "a\nb\n", replacing: "a\n// ... rest of the method ...\n  b\n"},
		{name: "placeholder into empty text (a new file)", replaced: "", replacing: "// ... existing code ...\n"},
		{name: "only blank lines replaced", replaced: "\n\n", replacing: "// ... rest ...\n"},
		{name: "empty replacement", replaced: "a\n", replacing: ""},
		{name: "a markdown rule", replaced: "a\n", replacing: "# ---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, text, found := Omission(tt.replaced, tt.replacing)
			if found != (tt.wantLine > 0) || line != tt.wantLine || text != tt.wantText {
				t.Fatalf("Omission = (%d, %q, %v), want (%d, %q, %v)", line, text, found, tt.wantLine, tt.wantText, tt.wantLine > 0)
			}
			err := CheckOmission("new_str", tt.replaced, tt.replacing)
			if (err != nil) != found || err != nil && !errors.Is(err, ErrOmission) {
				t.Fatalf("CheckOmission = %v, want an ErrOmission: %v", err, found)
			}
		})
	}
}

func TestCheckOmissionMessage(t *testing.T) {
	err := CheckOmission("new_str", "a\nb\n", "a\n    // ... rest of the method ...\n")
	want := `replacement omits code with a placeholder: line 2 of new_str, "// ... rest of the method ...", stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in new_str, every line that should remain written out; nothing was changed`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

func FuzzOmission(f *testing.F) {
	f.Add("a\nb\n", "a\n// ... rest ...\n")
	f.Add("", "(other methods here)")
	f.Fuzz(func(t *testing.T, replaced, replacing string) {
		line, text, found := Omission(replaced, replacing)
		if !found {
			return
		}
		if line < 1 || !isPlaceholder(text) {
			t.Fatalf("Omission = (%d, %q)", line, text)
		}
	})
}
