package exactedit

import (
	"errors"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// TestPlanEditOmissionRefused: a new_string with a placeholder line that
// stands for code the edit would delete is refused with its line and text,
// at every matching path (exact, tolerant ladder stage, replace_all,
// MultiEdit); ports Cline's detectCodeOmission (src/integrations/editor/
// detect-omission.ts: "// rest of code unchanged", "// ... existing code
// ...") and aider's lazy-comment refusal ("# ... existing code ...",
// aider/coders/editblock_prompts.py "ONLY EVER RETURN CODE IN A *SEARCH/
// REPLACE BLOCK*!" and the lazy_prompt).
func TestPlanEditOmissionRefused(t *testing.T) {
	const goSrc = "func Run() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()\n}\n"
	const pySrc = "def a():\n    x = 1\n    y = 2\n\ndef b():\n    x = 1\n    y = 2\n"
	tests := []struct {
		name, content, old, new string
		all                     bool
		details                 string
	}{
		{name: "Cline detectCodeOmission: // ... rest of the method ...", content: goSrc,
			old:     "func Run() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()\n}",
			new:     "func Run() error {\n\tlog()\n\t// ... rest of the method ...\n}",
			details: `Line 3 of new_string, "// ... rest of the method ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out`},
		{name: "Cline detectCodeOmission: // rest of code unchanged, old_string off in indentation (ladder stage)", content: goSrc,
			old:     "    if err := open(); err != nil {\n        return err\n    }",
			new:     "    // rest of code unchanged",
			details: `Line 1 of new_string, "// rest of code unchanged", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out`},
		{name: "aider lazy comment # ... existing code ..., replace_all", content: pySrc, all: true,
			old:     "    x = 1\n    y = 2",
			new:     "    x = 3\n    # ... existing code ...",
			details: `Line 2 of new_string, "# ... existing code ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out`},
		{name: "Read line-number prefixes on both: the placeholder is found once they are removed", content: "x\nold\ny\n",
			old:     "     2\told\n     3\ty",
			new:     "     2\t// ... rest unchanged ...",
			details: `Line 1 of new_string, "// ... rest unchanged ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out`},
		{name: "placeholder for text old_string does not even match: refused before the search", content: goSrc,
			old:     "a()\nb()",
			new:     "a()\n// ... rest unchanged ...",
			details: `Line 2 of new_string, "// ... rest unchanged ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanEdit([]byte(tt.content), tt.old, tt.new, tt.all)
			checkFailure(t, err, "new_string omits code with a placeholder", tt.details, ErrOmission)
			if !errors.Is(err, match.ErrOmission) {
				t.Errorf("err %v does not unwrap to match.ErrOmission", err)
			}
			if p.Edits != nil || p.Replacements != 0 {
				t.Errorf("planned %+v with an error", p)
			}
		})
	}
}

// TestPlanEditPlaceholderThatLosesNothing: a placeholder-like comment that
// deletes nothing (the file has it already, or every old line is kept) is
// written as given: the check refuses only a loss.
func TestPlanEditPlaceholderThatLosesNothing(t *testing.T) {
	tests := []struct{ name, content, old, new, want string }{
		{name: "the comment is in the file: moved with its code", content: "a()\n// ... rest of the method ...\nb()\n",
			old: "a()\n// ... rest of the method ...", new: "// ... rest of the method ...\nc()",
			want: "// ... rest of the method ...\nc()\nb()\n"},
		{name: "every old line kept: the comment adds, it deletes nothing", content: "a()\nb()\n",
			old: "a()\nb()", new: "a()\n// ... existing code ...\nb()",
			want: "a()\n// ... existing code ...\nb()\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanEdit([]byte(tt.content), tt.old, tt.new, false)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			got, err := text.ApplyEdits([]byte(tt.content), p.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestPlanMultiEditOmissionRefused: a MultiEdit whose second edit has a
// placeholder is refused whole, naming the edit (Cline detectCodeOmission).
func TestPlanMultiEditOmissionRefused(t *testing.T) {
	content := []byte("alpha\nbeta\ngamma\n")
	_, err := PlanMultiEdit(content, MultiEditArgs{Edits: []EditArgs{{OldString: "alpha", NewString: "a"}, {OldString: "beta\ngamma", NewString: "b\n// ... rest of the file unchanged ..."}}})
	checkFailure(t, err, "Edit 2 of 2 failed: new_string omits code with a placeholder",
		`Line 2 of new_string, "// ... rest of the file unchanged ...", stands for code it leaves out, and the edit would delete the lines it stands for. Send new_string in full, every line that should remain written out. None of the 2 edits was applied; send them all again with edit 2 fixed`,
		ErrOmission)
}
