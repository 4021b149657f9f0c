package applypatch

import (
	"errors"
	"maps"
	"testing"

	"github.com/git-edit/git-edit/ops/match"
)

// TestOmissionPlaceholderRefused: a hunk that deletes lines and adds a
// placeholder standing for them is refused whole, naming the hunk and the
// placeholder, files untouched; ports Cline's detectCodeOmission
// ("// ... rest of code unchanged") and aider's lazy-comment refusal
// ("# ... existing code ..."). A hunk that only adds such a comment, or
// keeps every line it matched, loses nothing and applies.
func TestOmissionPlaceholderRefused(t *testing.T) {
	const goSrc = "package p\n\nfunc Run() error {\n\tif err := open(); err != nil {\n\t\treturn err\n\t}\n\treturn loop()\n}\n"
	const pySrc = "def a():\n    x = 1\n    y = 2\n    return x + y\n"
	tests := []struct {
		name, patch string
		files       map[string]string
		want        string // the refusal; "" when it applies
		after       map[string]string
	}{
		{name: "Cline detectCodeOmission: // ... rest of the method ... for the removed body",
			patch: "*** Begin Patch\n*** Update File: p.go\n@@ func Run() error {\n-\tif err := open(); err != nil {\n-\t\treturn err\n-\t}\n-\treturn loop()\n+\tlog()\n+\t// ... rest of the method ...\n }\n*** End Patch",
			files: map[string]string{"p.go": goSrc},
			want:  "Refused hunk 1 of 1 in '*** Update File: p.go': its added line '// ... rest of the method ...' is a placeholder that stands for code it leaves out, and the hunk would delete the lines it stands for. Nothing was changed: the whole patch was refused. Send the patch again with every line that should remain written out as context (' '), and '-' only on the lines to delete."},
		{name: "aider lazy comment # ... existing code ..., second hunk, matched ignoring indentation",
			patch: "*** Begin Patch\n*** Update File: m.py\n@@\n-def a():\n+def b():\n@@\n-  y = 2\n-  return x + y\n+  # ... existing code ...\n*** End Patch",
			files: map[string]string{"m.py": pySrc},
			want:  "Refused hunk 2 of 2 in '*** Update File: m.py': its added line '# ... existing code ...' is a placeholder that stands for code it leaves out, and the hunk would delete the lines it stands for. Nothing was changed: the whole patch was refused. Send the patch again with every line that should remain written out as context (' '), and '-' only on the lines to delete."},
		{name: "a placeholder-like comment that only adds applies",
			patch: "*** Begin Patch\n*** Update File: m.py\n@@\n     x = 1\n+    # ... existing code ...\n     y = 2\n*** End Patch",
			files: map[string]string{"m.py": pySrc},
			after: map[string]string{"m.py": "def a():\n    x = 1\n    # ... existing code ...\n    y = 2\n    return x + y\n"}},
		{name: "a placeholder comment the file has, moved with its code, applies",
			patch: "*** Begin Patch\n*** Update File: c.go\n@@\n-a()\n-// ... rest of the method ...\n+// ... rest of the method ...\n+c()\n*** End Patch",
			files: map[string]string{"c.go": "a()\n// ... rest of the method ...\nb()\n"},
			after: map[string]string{"c.go": "// ... rest of the method ...\nc()\nb()\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := map[string][]byte{}
			for k, v := range tt.files {
				in[k] = []byte(v)
			}
			got, msg := runPatch(t, tt.patch, in)
			if tt.want == "" {
				want := map[string][]byte{}
				for k, v := range tt.after {
					want[k] = []byte(v)
				}
				if !maps.EqualFunc(got, want, func(a, b []byte) bool { return string(a) == string(b) }) {
					t.Fatalf("files %q, want %q (result %s)", got, want, msg)
				}
				return
			}
			if msg != tt.want {
				t.Errorf("refusal:\n%s\nwant:\n%s", msg, tt.want)
			}
			if !maps.EqualFunc(got, in, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Errorf("files changed by a refusal: %q", got)
			}
			p, err := Parse(tt.patch)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = Plan(p, state(p, in))
			var f *Failure
			if !errors.Is(err, ErrOmission) || !errors.Is(err, match.ErrOmission) || !errors.As(err, &f) || !maps.Equal(map[string]string{f.Path: tt.files[f.Path]}, tt.files) {
				t.Errorf("error %v (%+v) does not wrap ErrOmission or name the file", err, f)
			}
		})
	}
}
