package codeedit

import (
	"errors"
	"testing"

	ladder "github.com/git-edit/git-edit/ops/match"
	"github.com/git-edit/git-edit/ops/text"
)

// TestPlanOmissionPlaceholder_AiderLazy: a REPLACE that puts a placeholder
// where SEARCH's code was is refused, naming its line (Aider's lazy-comment
// prompts, Cline's detectCodeOmission); this format's own `...` elision
// lines are not placeholders.
func TestPlanOmissionPlaceholder_AiderLazy(t *testing.T) {
	const file = "def process(data):\n    clean = data.strip()\n    validated = validate(clean)\n    return validated\n"
	tests := []struct {
		name, search, replace string
		want, wantErr         string
	}{
		{name: "Aider lazy # ... rest of the function ...",
			search:  "def process(data):\n    clean = data.strip()\n    validated = validate(clean)\n    return validated\n",
			replace: "def process(data):\n    clean = data.strip().lower()\n    # ... rest of the function ...\n",
			wantErr: `src/p.py: replacement omits code with a placeholder: line 3 of replace, "# ... rest of the function ...", stands for code it leaves out, and the edit would delete the lines it stands for; send the full text in replace, every line that should remain written out; nothing was changed`},
		{name: "seed 003 ... elision is not a placeholder",
			search:  "def process(data):\n    clean = data.strip()\n    ...\n    return validated\n",
			replace: "def process(data):\n    clean = data.strip().lower()\n    ...\n    return validated\n",
			want:    "def process(data):\n    clean = data.strip().lower()\n    validated = validate(clean)\n    return validated\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Plan(Edit{FilePath: "src/p.py", Search: tt.search, Replace: tt.replace}, []byte(file), true)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ladder.ErrOmission) {
					t.Fatalf("error\n got: %v\nwant: %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := text.ApplyEdits([]byte(file), r.Edits)
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}
